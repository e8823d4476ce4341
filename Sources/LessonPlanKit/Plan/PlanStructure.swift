import Foundation

/// One section of a plan under one of the framework's headings, so checks and edits can address it.
public struct PlanSection: Codable, Equatable, Hashable, Sendable {
    /// The expected heading this section matched, spelled as the framework spells it.
    public var heading: String
    /// The heading line as the plan wrote it, trimmed, e.g. `## 3) Warm-Up (5 min)`.
    public var title: String
    /// Zero-based lines from the heading line up to the next heading (or the end), so an edit can replace it exactly.
    public var lineRange: Range<Int>
    /// The lines under the heading, without leading and trailing blank lines.
    public var body: [String]
    /// The minutes the section takes by the rules of ``PlanStructure``, or nil when it names no time.
    public var minutes: Int?

    public init(heading: String, title: String, lineRange: Range<Int>, body: [String], minutes: Int?) {
        self.heading = heading
        self.title = title
        self.lineRange = lineRange
        self.body = body
        self.minutes = minutes
    }
}

/// A recognised heading line: which expected heading it is and the time it names, if any.
public struct HeadingMatch: Equatable, Sendable {
    /// The expected heading, spelled as the framework spells it.
    public var heading: String
    /// A time written on the heading line itself, e.g. 10 for `(10 min)` or `— 10 minutes`.
    public var minutes: Int?

    public init(heading: String, minutes: Int?) {
        self.heading = heading
        self.minutes = minutes
    }
}

/// A plan's text cut into sections at the framework's headings, because models decorate headings freely.
///
/// **Headings.** A line is a heading only when, after removing decorations, it is one of the expected
/// headings. Decorations are: surrounding whitespace; markdown `#`…`######`; bold or italic markers
/// (`**`, `__`, `*`, `_`); a numbering prefix (`1)`, `1.`, `1 -`, `1:`, `(1)`, `Step 1:`, `Part 2 -`,
/// `IV.`, `B)`); a trailing colon; a trailing time (`(10 min)`, `[10 minutes]`, `— 10 minutes`,
/// `: 10 min`, `(0–5 min)`, `(minutes 5–15)`); and short trailing parentheses of up to 40 characters
/// (`(optional)`, `(CFU)`, `(ongoing)`, `(pairs, about 10 min)`), whose time, if any, is read as well.
/// What is left is compared by key: lower case, accents and parentheses dropped, every run of
/// non-letters (spaces, hyphens, slashes, `&`) removed and the word "and" ignored, so `Warm-Up (5 min)`
/// matches `Warm Up`, `warmup` and `WARM-UP (5 minutes):`, and `Homework / Extension (optional)` matches
/// `Homework/Extension`. A line with anything else on it (`Materials: pencils`), or that starts with a
/// bullet or other symbol (`- Exit Ticket`), is body text.
/// Lines before the first heading are the preamble (usually a title).
///
/// **Minutes.** A section's minutes come from the first of these that gives a number:
/// 1. A time on the heading line. A range `a–b` there counts as `b − a` minutes. The one exception is
///    a time copied verbatim from the framework's own heading (`Warm-Up (5 min)` written as such) while
///    the body gives its own times: then the body's times win, since the copy says nothing about the plan.
/// 2. Minute ranges in the body, written with a minutes word: `0–5 min`, `5-15 minutes`, `3 to 8 mins`,
///    `(minutes 15–25)`. The section spans from the earliest start to the latest end, so
///    `0–2 min` and `2–5 min` under one heading give 5, not 7.
/// 3. Durations in the body, `N min` or `N minutes`, summed (`Think 2 min, pair 3 min` gives 5). Lines
///    that mention a total (`Total: 45 minutes`) are skipped, and so are hyphenated adjectives
///    (`a 5-minute video`), which describe a thing rather than pace the lesson.
///
/// Otherwise the section has no minutes (typical for Learning Objective, Materials, Differentiation)
/// and takes no part in pacing. Bare ranges such as `5-15` (page numbers, group sizes) and clock times
/// such as `10:00–10:15` are not read.
public struct PlanStructure: Equatable, Sendable {
    /// The expected headings, in the framework's order.
    public var headings: [String]
    /// Lines before the first heading, such as a title.
    public var preamble: [String]
    /// The sections in the order the plan writes them, repeats included.
    public var sections: [PlanSection]

    /// Cuts a plan into sections at lines that are one of `headings`.
    public init(parsing plan: String, headings: [String]) {
        self.headings = headings
        let lines = Self.lines(of: plan)
        let forms = headings.map(HeadingForm.init)
        var starts: [(line: Int, match: HeadingMatch)] = []
        for (index, line) in lines.enumerated() {
            if let match = Self.matchHeading(line, forms: forms) {
                starts.append((index, match))
            }
        }
        let preambleEnd = starts.first?.line ?? lines.count
        preamble = Self.trimmedBlankEdges(Array(lines[0..<preambleEnd]))
        sections = starts.enumerated().map { position, start in
            let end = position + 1 < starts.count ? starts[position + 1].line : lines.count
            let body = Self.trimmedBlankEdges(Array(lines[(start.line + 1)..<end]))
            let minutes = Self.sectionMinutes(headingLine: start.match, body: body)
            return PlanSection(
                heading: start.match.heading,
                title: lines[start.line].trimmingCharacters(in: .whitespaces),
                lineRange: start.line..<end,
                body: body,
                minutes: minutes
            )
        }
    }

    /// The first section under `heading`, if the plan has one.
    public func section(_ heading: String) -> PlanSection? {
        sections.first { $0.heading == heading }
    }

    /// The plan's lines, splitting on LF, CRLF and CR alike so line numbers match what an editor shows.
    public static func lines(of text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }

    /// The comparison key of a heading: lower-case letters and digits, parentheses and the word "and" dropped.
    public static func key(_ heading: String) -> String {
        keyWords(withoutParentheticals(heading)).joined()
    }

    /// `text` with every innermost `(…)` group replaced by a space, as the regex `\([^()]*\)` would.
    ///
    /// Hand-written because `key` runs for every heading of every framework at start-up and in every
    /// plan check, and a regex literal is parsed and compiled again each time it is evaluated.
    /// A group is an opening parenthesis whose next parenthesis is a closing one: the latest `(` seen
    /// before a `)`. Scanning resumes after that `)`, so matches never overlap, like the regex's.
    static func withoutParentheticals(_ text: String) -> String {
        var result = ""
        var copiedUpTo = text.startIndex
        var open: String.Index?
        for index in text.indices {
            switch text[index] {
            case "(":
                open = index
            case ")":
                guard let start = open else { continue }
                result += text[copiedUpTo..<start]
                result += " "
                copiedUpTo = text.index(after: index)
                open = nil
            default:
                continue
            }
        }
        result += text[copiedUpTo...]
        return result
    }

    /// Which expected heading a line is, with the time it names; nil when the line is body text.
    public static func matchHeading(_ line: String, in headings: [String]) -> HeadingMatch? {
        matchHeading(line, forms: headings.map(HeadingForm.init))
    }

    /// A section's minutes from the time on its heading line and the times in its body (rules in the type's doc).
    public static func sectionMinutes(headingLine: HeadingMatch, body: [String]) -> Int? {
        let fromBody = bodyMinutes(body)
        guard let onHeading = headingLine.minutes else { return fromBody }
        if let fromBody, let copied = HeadingForm(headingLine.heading).ownMinutes, copied == onHeading {
            return fromBody
        }
        return onHeading
    }

    /// The minutes named in body lines: the span of minute ranges, else the sum of durations, else nil.
    public static func bodyMinutes(_ body: [String]) -> Int? {
        var starts: [Int] = []
        var ends: [Int] = []
        var durations: [Int] = []
        for line in body {
            let times = MinuteText.times(in: line)
            for range in times.ranges {
                starts.append(range.lowerBound)
                ends.append(range.upperBound)
            }
            if !line.lowercased().contains("total") {
                durations += times.durations
            }
        }
        if let first = starts.min(), let last = ends.max() { return last - first }
        return durations.isEmpty ? nil : durations.reduce(0, +)
    }

    // MARK: - Heading recognition

    static func matchHeading(_ line: String, forms: [HeadingForm]) -> HeadingMatch? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 160 else { return nil }
        let plain = withoutMarkup(trimmed)
        var candidates = [plain]
        if let unnumbered = withoutNumbering(plain), unnumbered != plain {
            candidates.append(unnumbered)
        }
        for candidate in candidates {
            // Peeling only removes trailing text, so a heading's key must begin the whole line's key;
            // checking that first keeps the costly suffix patterns off nearly every body line.
            let lineKey = keyWords(candidate).joined()
            guard forms.contains(where: { !$0.key.isEmpty && lineKey.hasPrefix($0.key) }) else { continue }
            let peeled = peelSuffixes(candidate)
            // A bullet, quote mark or other symbol in front makes the line a list item, not a heading.
            guard let first = peeled.core.first, first.isLetter || first.isNumber else { continue }
            let coreKey = keyWords(peeled.core).joined()
            for form in forms where form.key == coreKey {
                return HeadingMatch(heading: form.heading, minutes: peeled.minutes)
            }
        }
        return nil
    }

    // Compiled once: these run on every line of every plan parsed (see ``SharedRegex``).
    private static let markdownHeadingMarks = SharedRegex(/^#{1,6}\s*/)
    private static let numberingPrefix = SharedRegex(
        /(?i)^(?:(?:step|part|section|stage|phase)\s*)?\(?(?:\d{1,2}(?:\s*[.):\-–—]\s*|\s+)|[ivx]{1,4}\s*[.)]\s*|[a-z][.)]\s+)/)
    private static let trailingNote = SharedRegex(/[(\[]([^()\[\]]{1,40})[)\]]$/)

    /// Drops markdown heading marks and bold or italic markers.
    static func withoutMarkup(_ text: String) -> String {
        var s = text.replacing(markdownHeadingMarks, with: "")
        s = s.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
        return s.trimmingCharacters(in: CharacterSet(charactersIn: "*_").union(.whitespaces))
    }

    /// Drops a numbering prefix such as `1)`, `2.`, `3 -`, `(4)`, `Step 5:`, `IV.` or `B)`; nil when there is none.
    static func withoutNumbering(_ text: String) -> String? {
        guard let match = text.prefixMatch(of: numberingPrefix) else { return nil }
        let rest = text[match.range.upperBound...]
        return rest.trimmingCharacters(in: CharacterSet(charactersIn: "*_").union(.whitespaces))
    }

    /// Peels trailing colons, one trailing time and short trailing parentheses off a heading candidate.
    static func peelSuffixes(_ text: String) -> (core: String, minutes: Int?) {
        var rest = Substring(text)
        var minutes: Int?
        let edge = CharacterSet(charactersIn: ":*_").union(.whitespaces)
        while true {
            rest = Substring(rest.trimmingCharacters(in: edge))
            if minutes == nil, let time = MinuteText.trailingTime(in: rest) {
                minutes = time.minutes
                rest = rest[..<time.start]
                continue
            }
            if let note = rest.firstMatch(of: trailingNote) {
                minutes = minutes ?? bodyMinutes([String(note.1)])
                rest = rest[..<note.range.lowerBound]
                continue
            }
            break
        }
        return (String(rest), minutes)
    }

    /// Lower-case, accent-free words of letters and digits, without the word "and".
    static func keyWords(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .lowercased()
            .split { !($0.isLetter || $0.isNumber) }
            .map(String.init)
            .filter { $0 != "and" }
    }

    static func trimmedBlankEdges(_ lines: [String]) -> [String] {
        let isBlank = { (line: String) in line.trimmingCharacters(in: .whitespaces).isEmpty }
        guard let first = lines.firstIndex(where: { !isBlank($0) }),
            let last = lines.lastIndex(where: { !isBlank($0) })
        else { return [] }
        return Array(lines[first...last])
    }
}

/// An expected heading prepared for matching: its key and the time the framework wrote into it.
struct HeadingForm: Sendable {
    let heading: String
    let key: String
    /// The time written in the framework's own heading, such as 5 for `Warm-Up (5 min)`.
    let ownMinutes: Int?

    init(_ heading: String) {
        self.heading = heading
        key = PlanStructure.key(heading)
        ownMinutes = MinuteText.trailingTime(in: Substring(heading))?.minutes
    }
}

/// Reading minute ranges and durations out of a line of plan text.
enum MinuteText {
    // Compiled once: these run on every heading candidate and body line (see ``SharedRegex``).
    private static let trailingTimePattern = SharedRegex(#/
            (?i) \s* (?: [:,\-–—] \s* )? [(\[]? \s* (?: about | approx\.? | approximately | ~ | ≈ )? \s*
            (?:
                (\d{1,3}) \s* (?: [\-–—] | to ) \s* (\d{1,3}) \s* min(?:ute)?s? \.?   # 0–5 min
              | min(?:ute)?s? \s* (\d{1,3}) \s* (?: [\-–—] | to ) \s* (\d{1,3})      # minutes 5–15
              | (\d{1,3}) \s* min(?:ute)?s? \.?                                     # 10 minutes
            )
            \s* [)\]]? \s* $
            /#)
    private static let rangePatterns = [
        SharedRegex(/(?i)(\d{1,3})\s*(?:[-–—]|to)\s*(\d{1,3})\s*min(?:ute)?s?\b/),
        SharedRegex(/(?i)\bmin(?:ute)?s?\s*(\d{1,3})\s*(?:[-–—]|to)\s*(\d{1,3})/),
    ]
    private static let durationPattern = SharedRegex(/(?i)(?:^|[^\d\-–—.:])(\d{1,3})\s*min(?:ute)?s?\b/)

    /// A time at the end of a heading: an optional separator, optional brackets, a range or a duration.
    static func trailingTime(in text: Substring) -> (minutes: Int, start: Substring.Index)? {
        guard let match = text.firstMatch(of: trailingTimePattern) else { return nil }
        // A closing bracket without its opener belongs to a longer note such as `(pairs, 10 min)`.
        let opens = match.0.contains { $0 == "(" || $0 == "[" }
        let closes = match.0.contains { $0 == ")" || $0 == "]" }
        guard opens == closes else { return nil }
        let minutes: Int?
        if let low = match.1.flatMap({ Int($0) }), let high = match.2.flatMap({ Int($0) }) {
            minutes = high > low ? high - low : nil
        } else if let low = match.3.flatMap({ Int($0) }), let high = match.4.flatMap({ Int($0) }) {
            minutes = high > low ? high - low : nil
        } else {
            minutes = match.5.flatMap { Int($0) }
        }
        guard let minutes, minutes > 0 else { return nil }
        return (minutes, match.range.lowerBound)
    }

    /// Minute ranges (`0–5 min`, `minutes 5-15`) and plain durations (`10 minutes`) in one body line.
    static func times(in line: String) -> (ranges: [ClosedRange<Int>], durations: [Int]) {
        // Every pattern needs an ASCII digit (only those parse as Int) and "min": most lines have
        // neither, and the patterns are the costly part of reading a plan.
        guard line.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            line.range(of: "min", options: .caseInsensitive) != nil
        else { return ([], []) }
        var ranges: [ClosedRange<Int>] = []
        var rest = line
        for pattern in rangePatterns {
            for match in rest.matches(of: pattern) {
                if let low = Int(match.1), let high = Int(match.2), low < high, high <= 600 {
                    ranges.append(low...high)
                }
            }
            rest = rest.replacing(pattern, with: " ")
        }
        var durations: [Int] = []
        for match in rest.matches(of: durationPattern) {
            if let minutes = Int(match.1), minutes > 0 {
                durations.append(minutes)
            }
        }
        return (ranges, durations)
    }
}
