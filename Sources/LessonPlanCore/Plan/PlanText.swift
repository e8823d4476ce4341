import Foundation

/// A recognised heading line: which expected heading it is and the time it names, if any.
package struct HeadingMatch: Equatable, Sendable {
    /// The expected heading, spelled as the framework spells it.
    package var heading: String
    /// A time written on the heading line itself, e.g. 10 for `(10 min)` or `— 10 minutes`.
    package var minutes: Int?
    /// The start and end the heading line states, e.g. 5...17 for `(5–17 min)`; nil for a bare duration.
    package var span: ClosedRange<Int>?

    package init(heading: String, minutes: Int?, span: ClosedRange<Int>? = nil) {
        self.heading = heading
        self.minutes = minutes
        self.span = span
    }
}

// The line-level rules of ``PlanDocument``: heading recognition, times, list markers and teacher labels.
// Each rule exists once, here; every reader of a plan goes through the document that uses them.
extension PlanDocument {
    /// The plan's lines, splitting on LF, CRLF and CR alike so line numbers match what an editor shows.
    package static func lines(of text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }

    /// The comparison key of a heading: lower-case letters and digits, parentheses and the word "and" dropped.
    package static func key(_ heading: String) -> String {
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
    package static func matchHeading(_ line: String, in headings: [String]) -> HeadingMatch? {
        matchHeading(line, forms: headings.map(HeadingForm.init))
    }

    /// A section's minutes from the time on its heading line and the times in its body (rules in the type's doc).
    package static func sectionMinutes(headingLine: HeadingMatch, body: [String]) -> Int? {
        sectionTime(headingLine: headingLine, body: body, clock: .firstHour, bodyMayStartAtZero: true).minutes
    }

    /// The minutes named in body lines: the span of minute ranges, else the sum of durations, else nil.
    package static func bodyMinutes(_ body: [String]) -> Int? {
        bodyTime(body, clock: .firstHour).minutes
    }

    /// A section's minutes and, where the plan states them, its start and end on the lesson's clock.
    /// - Parameter bodyMayStartAtZero: false after another timed section, where a body range starting at 0
    ///   (`0–3 min: hook`) counts from the section's own start and so gives a length, not a place.
    static func sectionTime(
        headingLine: HeadingMatch, body: [String], clock: ClockRule, bodyMayStartAtZero: Bool, timed: Bool = true
    ) -> (minutes: Int?, span: ClosedRange<Int>?) {
        let fromBody = bodyTime(body, clock: clock, timed: timed)
        let bodySpan = fromBody.span.flatMap { bodyMayStartAtZero || $0.lowerBound > 0 ? $0 : nil }
        guard let onHeading = headingLine.minutes else { return (fromBody.minutes, bodySpan) }
        if let minutes = fromBody.minutes, let copied = HeadingForm(headingLine.heading).ownMinutes, copied == onHeading {
            return (minutes, bodySpan)
        }
        return (onHeading, headingLine.span)
    }

    /// The minutes named in body lines, and their span when they are ranges.
    ///
    /// Only times written where plans state pacing count: a stamp opening a line (`0–5 min:`, `(10 min)`,
    /// `10 minutes:`), a stamp closing one (`Model two examples (5 min)`, `— 10 minutes`), or a line that is
    /// only a time (`15–25 min`, `(minutes 47–52)`). A duration inside a sentence (`start a 10 minute timer`,
    /// `switch every 10 minutes`) is an instruction, not pacing; only when the section states no stamp at all
    /// does the first duration of its first line count (`Students have 10 minutes to sort …`). A time in
    /// brackets is a stamp wherever it stands (`sort cards (7 min), then share (3 min)`).
    /// - Parameter timed: false for a section the framework gives no time (the objective, the materials):
    ///   there only a stamp opening its first line counts, so a title such as `Grade 4 Math (45 minutes)` is
    ///   not read as the section's length.
    static func bodyTime(_ body: [String], clock: ClockRule, timed: Bool = true) -> (minutes: Int?, span: ClosedRange<Int>?) {
        var starts: [Int] = []
        var ends: [Int] = []
        var durations: [Int] = []
        let read = timed ? body : Array(body.prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.prefix(1))
        for line in read {
            guard let stamp = MinuteText.pacingStamp(in: line, closing: timed) else { continue }
            let times = MinuteText.times(in: stamp, clock: clock)
            for range in times.ranges {
                starts.append(range.lowerBound)
                ends.append(range.upperBound)
            }
            if !line.lowercased().contains("total") {
                durations += times.durations
            }
        }
        if let first = starts.min(), let last = ends.max() { return (last - first, first...last) }
        if !durations.isEmpty { return (durations.reduce(0, +), nil) }
        // No stamp anywhere: a section that opens "Students have 10 minutes to …" states its time in words.
        guard timed, let opening = body.first(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }),
            !opening.lowercased().contains("total")
        else { return (nil, nil) }
        let times = MinuteText.times(in: opening, clock: clock)
        guard times.ranges.isEmpty, let minutes = times.durations.first else { return (nil, nil) }
        return (minutes, nil)
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
                return HeadingMatch(heading: form.heading, minutes: peeled.minutes, span: peeled.span)
            }
        }
        return nil
    }

    // Compiled once: these run on every line of every plan parsed (see ``SharedRegex``).
    private static let markdownHeadingMarks = SharedRegex(/^#{1,6}\s*/)
    private static let numberingPrefix = SharedRegex(
        /(?i)^(?:(?:step|part|section|stage|phase)\s*)?\(?(?:\d{1,2}(?:\s*[.):\-–—]\s*|\s+)|[ivx]{1,4}\s*[.)]\s*|[a-z][.)]\s+)/)
    private static let trailingNote = SharedRegex(/[(\[]([^()\[\]]{1,40})[)\]]$/)
    private static let trailingTimeLabel = SharedRegex(/(?i)\s*[—–\-|,]?\s*(?:time|duration|timing|length|approx\.?|about)$/)

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
    static func peelSuffixes(_ text: String) -> (core: String, minutes: Int?, span: ClosedRange<Int>?) {
        var rest = Substring(text)
        var minutes: Int?
        var span: ClosedRange<Int>?
        let edge = CharacterSet(charactersIn: ":*_").union(.whitespaces)
        while true {
            rest = Substring(rest.trimmingCharacters(in: edge))
            if minutes == nil, let time = MinuteText.trailingTime(in: rest) {
                minutes = time.minutes
                span = time.span
                rest = rest[..<time.start]
                continue
            }
            // A label before the time it names (`Direct Instruction — Time: 12 min`) goes with the time.
            if minutes != nil, let label = rest.firstMatch(of: trailingTimeLabel) {
                rest = rest[..<label.range.lowerBound]
                continue
            }
            if let note = rest.firstMatch(of: trailingNote) {
                minutes = minutes ?? bodyMinutes([String(note.1)])
                rest = rest[..<note.range.lowerBound]
                continue
            }
            break
        }
        return (String(rest), minutes, span)
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
        key = PlanDocument.key(heading)
        ownMinutes = MinuteText.trailingTime(in: Substring(heading))?.minutes
    }
}

/// Which clock times (`0:05–0:17`) a plan's lines are read with: lesson time starts at 0:00, a wall clock does not.
package enum ClockRule: Sendable {
    /// Only ranges that start in the lesson's first hour (`0:05–0:17`, `0:50–1:00`); `10:00–10:15` is a wall clock.
    case firstHour
    /// The plan counts from 0:00, so later hours (`1:05–1:20`) are lesson time too.
    case lessonClock

    /// Whether a range starting at `hour` is read as lesson time.
    func reads(startHour hour: Int) -> Bool {
        switch self {
        case .firstHour: hour == 0
        case .lessonClock: hour <= 3
        }
    }
}

/// Reading minute ranges, clock ranges and durations out of a line of plan text.
package enum MinuteText {
    // Compiled once: these run on every heading candidate and body line (see ``SharedRegex``).
    private static let trailingTimePattern = SharedRegex(
        #/
            (?i) \s* (?: [:,\-–—] \s* )? [(\[]? \s* (?: about | approx\.? | approximately | ~ | ≈ )? \s*
            (?:
                (\d{1,3}) \s* (?: [\-–—] | to ) \s* (\d{1,3}) \s* min(?:ute)?s? \.?   # 0–5 min
              | min(?:ute)?s? \s* (\d{1,3}) \s* (?: [\-–—] | to ) \s* (\d{1,3})      # minutes 5–15
              | (\d{1,3}) \s* min(?:ute)?s? \.?                                     # 10 minutes
              | (\d) : (\d\d) \s* [\-–—] \s* (\d) : (\d\d) (?: \s* min(?:ute)?s? )?  # 0:05–0:17
            )
            \s* [)\]]? \s* $
            /#)
    private static let rangePatterns = [
        SharedRegex(/(?i)(\d{1,3})\s*(?:[-–—]|to)\s*(\d{1,3})\s*min(?:ute)?s?\b/),
        SharedRegex(/(?i)\bmin(?:ute)?s?\s*(\d{1,3})\s*(?:[-–—]|to)\s*(\d{1,3})/),
    ]
    // A clock range may close with a colon (`0:05–0:10: Show …`), never with more digits (`0:05–0:10:30`).
    private static let clockPattern = SharedRegex(/(?:^|[^\d:])(\d{1,2}):(\d\d)\s*[-–—]\s*(\d{1,2}):(\d\d)(?!\d|:\d)/)
    private static let durationPattern = SharedRegex(/(?i)(?:^|[^\d\-–—.:])(\d{1,3})\s*min(?:ute)?s?\b/)
    /// A time that opens a line: `0–5 min:`, `(5 min)`, `[10 minutes]`, `0:05–0:17`, `(0:05–0:17)`, `9:05–9:10`,
    /// `minutes 5-15 -`, `5 min –`.
    private static let leadingStamp = SharedRegex(
        #/
            (?i) ^ \s* (?:
                [(\[] \s* [^()\[\]]{0,12}? \d{1,3} \s* min(?:ute)?s? \s* [)\]]
              | \d{1,3} \s* (?: [\-–—] | to ) \s* \d{1,3} \s* min(?:ute)?s? \b \.?
              | min(?:ute)?s? \s* \d{1,3} \s* (?: [\-–—] | to ) \s* \d{1,3}
              | \d{1,2} : \d\d \s* [\-–—] \s* \d{1,2} : \d\d (?: \s* min(?:ute)?s? )?
              | [(\[] \s* \d{1,2} : \d\d \s* [\-–—] \s* \d{1,2} : \d\d (?: \s* min(?:ute)?s? )? \s* [)\]]
              | \d{1,3} \s* min(?:ute)?s? \b \.? (?= \s* [:\-–—|] )
            ) \s* [:\-–—|]? \s*
            /#)

    /// A time at the end of a heading: an optional separator, optional brackets, a range, clock range or duration.
    static func trailingTime(in text: Substring) -> (minutes: Int, span: ClosedRange<Int>?, start: Substring.Index)? {
        guard let match = text.firstMatch(of: trailingTimePattern) else { return nil }
        // A closing bracket without its opener belongs to a longer note such as `(pairs, 10 min)`.
        let opens = match.0.contains { $0 == "(" || $0 == "[" }
        let closes = match.0.contains { $0 == ")" || $0 == "]" }
        guard opens == closes else { return nil }
        var span: ClosedRange<Int>?
        if let low = match.1.flatMap({ Int($0) }), let high = match.2.flatMap({ Int($0) }) {
            span = high > low ? low...high : nil
        } else if let low = match.3.flatMap({ Int($0) }), let high = match.4.flatMap({ Int($0) }) {
            span = high > low ? low...high : nil
        } else if let h1 = match.6.flatMap({ Int($0) }), let m1 = match.7.flatMap({ Int($0) }),
            let h2 = match.8.flatMap({ Int($0) }), let m2 = match.9.flatMap({ Int($0) })
        {
            let low = h1 * 60 + m1
            let high = h2 * 60 + m2
            guard h1 <= 3, m1 < 60, m2 < 60, high > low else { return nil }
            span = low...high
        } else if let minutes = match.5.flatMap({ Int($0) }), minutes > 0 {
            return (minutes, nil, match.range.lowerBound)
        }
        guard let span else { return nil }
        return (span.upperBound - span.lowerBound, span, match.range.lowerBound)
    }

    /// Minute ranges (`0–5 min`, `minutes 5-15`, `0:05–0:17`) and plain durations (`10 minutes`) in one body line;
    /// a wall-clock range (`9:05–9:10`, outside `clock`) counts as a duration, since it says how long but not when.
    package static func times(in line: String, clock: ClockRule = .firstHour) -> (ranges: [ClosedRange<Int>], durations: [Int]) {
        // Every pattern needs an ASCII digit (only those parse as Int) and "min" or a colon: most lines have
        // none of them, and the patterns are the costly part of reading a plan.
        guard line.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return ([], []) }
        let hasMinutes = line.range(of: "min", options: .caseInsensitive) != nil
        let hasColon = line.utf8.contains(UInt8(ascii: ":"))
        guard hasMinutes || hasColon else { return ([], []) }
        var ranges: [ClosedRange<Int>] = []
        var wallClock: [Int] = []
        var rest = line
        if hasColon {
            for match in rest.matches(of: clockPattern) {
                guard let span = clockSpan(match.1, match.2, match.3, match.4) else { continue }
                // A wall clock (`9:05–9:10`) places nothing on the lesson's clock but still says how long.
                if clock.reads(startHour: span.hour) {
                    ranges.append(span.range)
                } else {
                    wallClock.append(span.range.upperBound - span.range.lowerBound)
                }
            }
            rest = rest.replacing(clockPattern, with: " ")
        }
        guard hasMinutes else { return (ranges, wallClock) }
        for pattern in rangePatterns {
            for match in rest.matches(of: pattern) {
                if let low = Int(match.1), let high = Int(match.2), low < high, high <= 600 {
                    ranges.append(low...high)
                }
            }
            rest = rest.replacing(pattern, with: " ")
        }
        var durations = wallClock
        for match in rest.matches(of: durationPattern) {
            if let minutes = Int(match.1), minutes > 0 {
                durations.append(minutes)
            }
        }
        return (ranges, durations)
    }

    /// Whether a line uses the lesson clock, a range that starts at hour 0 such as `0:05–0:17`.
    static func usesLessonClock(_ line: String) -> Bool {
        guard line.contains("0:") else { return false }
        return line.matches(of: clockPattern).contains { match in
            clockSpan(match.1, match.2, match.3, match.4)?.hour == 0
        }
    }

    private static func clockSpan(_ h1: Substring, _ m1: Substring, _ h2: Substring, _ m2: Substring)
        -> (hour: Int, range: ClosedRange<Int>)?
    {
        guard let a = Int(h1), let b = Int(m1), let c = Int(h2), let d = Int(m2), b < 60, d < 60 else { return nil }
        let low = a * 60 + b
        let high = c * 60 + d
        return high > low ? (a, low...high) : nil
    }

    /// The minute stamp that opens `text`, such as `0–5 min:` or `(5 min)`; nil when it opens with words.
    static func leadingStamp(in text: String) -> Range<String.Index>? {
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return text.prefixMatch(of: leadingStamp)?.range
    }

    /// The minute stamp that closes `text`: a time in brackets or after a dash or colon (`— 5 minutes`, `(10 min)`).
    ///
    /// A time in running words (`Share for 5 minutes.`) is an instruction, not a stamp.
    static func trailingStamp(in text: String) -> Range<String.Index>? {
        // A closing stamp ends in a bracket, a digit (a clock) or a minutes word; most lines end otherwise.
        let tail = text.utf8.reversed().drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ".") }
        guard let last = tail.first else { return nil }
        let letters = String(decoding: tail.prefix(7).reversed(), as: UTF8.self).lowercased()
        guard
            last == UInt8(ascii: ")") || last == UInt8(ascii: "]") || (last >= 48 && last <= 57)
                || letters.hasSuffix("min") || letters.hasSuffix("mins") || letters.hasSuffix("minute")
                || letters.hasSuffix("minutes")
        else { return nil }
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let trimmed = Substring(text)
        guard let time = trailingTime(in: trimmed) else { return nil }
        let written = trimmed[time.start...].trimmingCharacters(in: .whitespaces)
        guard let first = written.first, "([:,-–—".contains(first) else { return nil }
        return time.start..<text.endIndex
    }

    /// The part of a body line that states pacing: its opening stamp, its closing stamp, or the whole line when
    /// it is only a time; nil for a line whose times, if any, sit inside its words.
    /// - Parameter closing: whether a closing stamp counts (not in a section the framework gives no time).
    static func pacingStamp(in line: String, closing: Bool = true) -> String? {
        guard line.utf8.contains(where: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        var text = ListMarker.plain(line)
        if let marker = ListMarker.parse(text) { text = String(marker.rest) }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "*_").union(.whitespaces))
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) }
        if !words.isEmpty, words.allSatisfy({ $0.allSatisfy(\.isNumber) || ["min", "mins", "minute", "minutes", "to"].contains($0) }) {
            return text
        }
        if let range = leadingStamp(in: text) { return String(text[range]) }
        guard closing else { return nil }
        if let range = trailingStamp(in: text) { return String(text[range]) }
        // A time in brackets is a stamp wherever it stands: "sort cards (7 min), then share (3 min)".
        let bracketed = text.matches(of: bracketedTime).map { String(text[$0.range]) }
        return bracketed.isEmpty ? nil : bracketed.joined(separator: " ")
    }

    private static let bracketedTime = SharedRegex(
        /(?i)[(\[]\s*(?:about|approx\.?|approximately|~|≈)?\s*\d{1,3}\s*(?:(?:[-–—]|to)\s*\d{1,3}\s*)?min(?:ute)?s?\s*[)\]]/)

    /// `text` without its opening and closing minute stamps.
    package static func withoutStamps(_ text: String) -> String {
        var rest = text
        if let range = leadingStamp(in: rest) { rest.removeSubrange(range) }
        if let range = trailingStamp(in: rest) { rest.removeSubrange(range) }
        return rest.trimmingCharacters(in: .whitespaces)
    }
}

/// The one list-marker rule: what opens a list item and which kind of list it belongs to.
///
/// Bold markers are ignored, so `**1.** Why?` is numbered. Markers, tried in this order:
/// - numbered: `1.`, `2)`, `(3)`, `4:` (not `1.5`), and `Q4:`, `Question 5 -`, `Prompt 6:`;
/// - lettered: `a)`, `B.` followed by a space;
/// - bulleted: `-`, `–`, `*`, `•`, `‣`, `◦`, `▪`, `+`, `·` followed by a space (so `**bold**` and `---` are not items).
package enum ListMarker: Sendable {
    /// The kinds of list, in the order a count prefers them.
    package enum Kind: Int, Sendable, Codable {
        case numbered, lettered, bulleted
    }

    private static let markers: [(kind: Kind, pattern: SharedRegex<Substring>)] = [
        (.numbered, SharedRegex(/(?i)^\(?\d{1,2}[.):](?!\d)\s*/)),
        (.numbered, SharedRegex(/(?i)^(?:q|question|prompt)\s*\d{1,2}\s*[.):\-–—]?\s*/)),
        (.lettered, SharedRegex(/^\(?[A-Za-z][.)]\s+/)),
        (.bulleted, SharedRegex(/^[-–*•‣◦▪+·]\s+/)),
    ]

    /// The marker opening `text` (already trimmed and without bold markers): its kind, number and the rest.
    package static func parse(_ text: String) -> (kind: Kind, number: Int?, rest: Substring)? {
        // Every marker opens with a digit, a bracket, a bullet, or a letter followed by `.`, `)` or a digit
        // (`Q1`), or spells Question or Prompt: a cheap look at two characters spares the patterns.
        guard let first = text.unicodeScalars.first else { return nil }
        if CharacterSet.letters.contains(first) {
            let second = text.unicodeScalars.dropFirst().first
            let lower = Character(first).lowercased()
            let opensWord = lower == "q" || lower == "p"
            guard opensWord || second == "." || second == ")" else { return nil }
        }
        for marker in markers {
            if let match = text.prefixMatch(of: marker.pattern) {
                let number = marker.kind == .numbered ? Int(match.0.filter(\.isNumber)) : nil
                return (marker.kind, number, text[match.range.upperBound...])
            }
        }
        return nil
    }

    /// A line without bold markers and surrounding spaces, as markers are matched against it.
    package static func plain(_ line: String) -> String {
        line.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
            .trimmingCharacters(in: .whitespaces)
    }

    /// Columns of indentation, a tab counting four.
    static func indent(of line: String) -> Int {
        line.prefix { $0 == " " || $0 == "\t" }.reduce(0) { $0 + ($1 == "\t" ? 4 : 1) }
    }
}

/// The one teacher-label rule: text among student items that only the teacher should see.
///
/// A line is labelled when, after its list marker, it opens with `Answer:`, `Answers -`, `Answer key:`,
/// `Look-fors:`, `Teacher note:`, `Teacher's notes:`, `Note to the teacher:`, `Teacher:`,
/// `Differentiation:`, `Pacing:`, or `A:` (an answer after a question), optionally after `Sample`,
/// `Expected`, `Possible`, `Model` or `Suggested`; a label may end in `:`, a dash or `(`. Two exceptions keep
/// student text: `A:` on a line that also offers `B:` or `B)` is a multiple-choice option, and a label
/// followed only by blanks to fill in (`Answer: ________`) is a place for the student to write.
package enum TeacherLabel: Sendable {
    // Compiled once: every counted, measured and handed-out line is tested (see ``SharedRegex``).
    private static let label = SharedRegex(
        /(?i)^(?:sample |expected |possible |model |suggested )?(?:answers?|answer key|look[- ]fors?|teacher(?:'s|’s)? notes?|notes? (?:for|to) (?:the )?teacher|teacher|differentiation|pacing|a(?=\s*:))\s*[:\-–—(]/
    )
    private static let secondChoice = SharedRegex(/\sB\s*[:)]/)

    /// Whether `text` (a line without its list marker) opens with a teacher label.
    package static func isLabelled(_ text: String) -> Bool {
        guard let match = text.prefixMatch(of: label) else { return false }
        let rest = text[match.range.upperBound...]
        if rest.allSatisfy({ $0 == "_" || $0.isWhitespace || $0 == ")" }) { return false }
        if match.0.lowercased().hasPrefix("a"), match.0.count <= 3, text.firstMatch(of: secondChoice) != nil {
            return false
        }
        return true
    }

    /// Words that make a heading the teacher's alone: its whole section is teacher-only.
    static func isTeacherHeading(_ key: String) -> Bool {
        let anywhere = ["teacher", "differentiat", "answerkey", "lookfor", "misconception", "scaffold", "accommodation"]
        let whole = ["answers", "answer", "pacing", "materials", "materialsneeded", "timing"]
        return anywhere.contains { key.contains($0) } || whole.contains(key)
    }
}
