import Foundation

/// One section of a plan under one of the framework's headings, so checks and edits can address it.
package struct PlanSection: Codable, Equatable, Hashable, Sendable {
    /// The expected heading this section matched, spelled as the framework spells it.
    package var heading: String
    /// The heading line as the plan wrote it, trimmed, e.g. `## 3) Warm-Up (5 min)`.
    package var title: String
    /// Zero-based lines from the heading line up to the next section heading (or the end), so an edit can replace it exactly.
    package var lineRange: Range<Int>
    /// The lines under the heading, without leading and trailing blank lines.
    package var body: [String]
    /// The minutes the section takes by the rules of ``PlanDocument``, or nil when it names no time.
    package var minutes: Int?
    /// Minutes into the lesson where the plan says the section starts (`5–17 min`), or nil when it gives only a length.
    package var start: Int?
    /// Minutes into the lesson where the plan says the section ends, or nil when it gives only a length.
    package var end: Int?

    package init(
        heading: String, title: String, lineRange: Range<Int>, body: [String], minutes: Int?, start: Int? = nil,
        end: Int? = nil
    ) {
        self.heading = heading
        self.title = title
        self.lineRange = lineRange
        self.body = body
        self.minutes = minutes
        self.start = start
        self.end = end
    }
}

/// Why a part of a plan or handout is for the teacher only, so `/materials` can say what it found.
package enum TeacherReason: String, Codable, Equatable, Sendable {
    /// A heading such as `7) Differentiation` or `Answer Key`; everything under it goes with it.
    case heading
    /// A line under such a heading.
    case underHeading
    /// A labelled line: `Answer:`, `Look-fors:`, `Teacher note:` (see ``TeacherLabel``).
    case label
    /// A minute stamp: `0–5 min:`, `(10 min)`, a heading with a time.
    case minuteStamp
}

/// A heading line of a plan, recognised by the framework or only shaped like a heading.
package struct PlanHeading: Equatable, Sendable {
    /// The heading as shown: without `#`, bold markers, numbering and a trailing colon, e.g. `Warm-Up (5 min)`.
    package var text: String
    /// The same without a stated time, for a page that students read.
    package var plainText: String
    /// The framework heading it is; nil for a heading the framework does not name (`9) Wrap-up`).
    package var framework: String?
    /// Whether it opens a section (ending the one before); false for a sub-heading inside a section.
    package var opensSection: Bool
    /// The minutes the heading line itself states, if any.
    package var minutes: Int?
    /// Why it is the teacher's alone, if it is.
    package var teacher: TeacherReason?

    package init(
        text: String, plainText: String, framework: String?, opensSection: Bool, minutes: Int?, teacher: TeacherReason?
    ) {
        self.text = text
        self.plainText = plainText
        self.framework = framework
        self.opensSection = opensSection
        self.minutes = minutes
        self.teacher = teacher
    }
}

/// A list item, numbered by its own list.
package struct PlanItem: Equatable, Sendable {
    package var kind: ListMarker.Kind
    /// The item's number in its list, counted from 1 after every heading; nil for bullets and letters.
    package var number: Int?
    /// The marker as written, e.g. `10.` or `a)`.
    package var marker: String
    /// The text after the marker, without bold markers around the whole.
    package var text: String
    /// Columns of indentation, for nesting.
    package var indent: Int
    package var teacher: TeacherReason?
}

/// A line of running text.
package struct PlanText: Equatable, Sendable {
    package var text: String
    package var teacher: TeacherReason?

    package init(text: String, teacher: TeacherReason?) {
        self.text = text
        self.teacher = teacher
    }

    /// Whether the line is only blanks to write on with their labels, such as `Name: ______  Date: ____`.
    package var isWriteIn: Bool {
        text.contains("__") && text.filter { $0.isLetter }.count <= 24
            && text.replacingOccurrences(of: "_", with: "").split(whereSeparator: \.isWhitespace).allSatisfy {
                $0.hasSuffix(":") || $0.allSatisfy { !$0.isLetter } || ["name", "date", "class", "period"].contains($0.lowercased())
            }
    }
}

/// One line of a plan as its one reader saw it.
package enum PlanBlock: Equatable, Sendable {
    /// A line before the first section: the plan's own title.
    case title(String)
    case heading(PlanHeading)
    case item(PlanItem)
    case text(PlanText)
    case blank

    /// Why this line is the teacher's alone, if it is.
    package var teacher: TeacherReason? {
        switch self {
        case .heading(let heading): heading.teacher
        case .item(let item): item.teacher
        case .text(let text): text.teacher
        case .title, .blank: nil
        }
    }
}

/// A part of a handout or plan that only the teacher should see, as `/materials` reports it.
package struct TeacherNote: Equatable, Sendable {
    /// The line as written, trimmed.
    package var line: String
    package var reason: TeacherReason
    /// Lines under a teacher heading that go with it.
    package var linesUnder: Int

    package init(line: String, reason: TeacherReason, linesUnder: Int = 0) {
        self.line = line
        self.reason = reason
        self.linesUnder = linesUnder
    }
}

/// A plan read once, by one reader, for its framework: what the check, pacing, reading level, handouts and
/// every export use, so they cannot disagree about where a section starts or what a list item is.
///
/// **Title.** Lines before the first section are the plan's title (a top `# Title` or bold first line
/// never opens a section unless it is a framework heading).
///
/// **Framework headings.** A line is one of the expected headings when, after removing decorations, its
/// key equals the heading's. Decorations are: surrounding whitespace; markdown `#`…`######`; bold or
/// italic markers (`**`, `__`, `*`, `_`); a numbering prefix (`1)`, `1.`, `1 -`, `1:`, `(1)`, `Step 1:`,
/// `Part 2 -`, `IV.`, `B)`); a trailing colon; a trailing time (`(10 min)`, `[10 minutes]`, `— 10 minutes`,
/// `: 10 min`, `(0–5 min)`, `(minutes 5–15)`, `(0:05–0:17)`); and short trailing parentheses of up to 40
/// characters (`(optional)`, `(CFU)`, `(pairs, about 10 min)`), whose time, if any, is read as well. The key
/// is lower case, accents and parentheses dropped, every run of non-letters removed and the word "and"
/// ignored, so `Warm-Up (5 min)` matches `warmup` and `WARM-UP (5 minutes):`. A line with anything else on
/// it (`Materials: pencils`), or that starts with a bullet or other symbol (`- Exit Ticket`), is body text.
///
/// **Other headings.** A line shaped like a heading that the framework does not name is kept as a heading
/// of its own, never as a list item. It is shaped like one when it is short, has no sentence end (`.`, `?`,
/// `!`), no blanks to fill in, and is a markdown heading, a wholly bold line, an ALL-CAPS line, a
/// Title-Case line ending in a colon or a time, a short line between a blank line and the list it names
/// (`Practice`), or a numbered line (numbered as ``ListMarker`` numbers items) that continues the plan's
/// section numbering (`9) Wrap-up` after `8) Check for Understanding`), is followed by a list that restarts
/// at 1, or states a time. It opens a section of its own (ending the one before, so `9) Wrap-up`'s prompts
/// are not counted as CFU questions) when it continues the numbering, is followed by a restarting list,
/// states a time, is ALL CAPS, is a markdown heading no deeper than the framework's, or the plan has no
/// framework heading at all; otherwise it is a sub-heading inside its section.
///
/// **Lists.** Items follow ``ListMarker``. Numbered items are numbered by their own list: counting restarts
/// at 1 after every heading and wherever the plan writes `1`, so exit-ticket prompts written `10. 11. 12.`
/// after their heading are 1, 2, 3.
///
/// **Times.** A section's minutes come from the first of these that gives a number:
/// 1. A time on the heading line. A range `a–b` (or `0:05–0:17`) states where the section sits on the
///    lesson's clock and counts as `b − a` minutes. The one exception is a time copied verbatim from the
///    framework's own heading (`Warm-Up (5 min)` written as such) while the body gives its own times.
/// 2. Ranges in the body, written with a minutes word (`0–5 min`, `5-15 minutes`, `3 to 8 mins`,
///    `(minutes 15–25)`) or on the lesson clock (`0:05–0:17`). The section spans from the earliest start
///    to the latest end. After another timed section a body range from 0 counts from the section's own
///    start (`0–3 min: hook`), so it gives only a length.
/// 3. Durations in the body, `N min` or `N minutes`, summed. Lines that mention a total are skipped, and so
///    are hyphenated adjectives (`a 5-minute video`).
/// Clock times are read only on the lesson clock: ranges starting at `0:` (and, once a plan uses those,
/// later hours too); `10:00–10:15` is a wall clock. Bare ranges such as `5-15` are not times.
///
/// **Teacher-only parts.** A heading whose words name teacher matter (differentiation, answer key, teacher
/// notes, look-fors, pacing, materials, misconceptions) and everything under it until the next heading of
/// its level; a line with a teacher label (``TeacherLabel``); a minute stamp opening or closing a line, or a
/// time on a heading.
package struct PlanDocument: Equatable, Sendable {
    /// The expected headings, in the framework's order.
    package var headings: [String]
    /// The plan's lines, as split by ``lines(of:)``.
    package var lines: [String]
    /// One block per line, in order.
    package var blocks: [PlanBlock]
    /// The framework's sections in the order the plan writes them, repeats included.
    package var sections: [PlanSection]

    /// Reads a plan written in `framework`, whose untimed sections (the objective, the materials) take no
    /// time from their body's words.
    package init(parsing plan: String, framework: Framework) {
        self.init(parsing: plan, headings: framework.headings, untimed: Set(framework.untimedHeadings))
    }

    /// Reads a plan whose sections are headed by `headings`.
    ///
    /// Four passes over the lines: what each line looks like (``PlanReading``), which lines are headings and
    /// which of those open sections, the sections with their times, then the blocks with list numbering and
    /// teacher-only parts.
    /// - Parameter untimed: headings the framework gives no time, where only the heading or a stamp opening
    ///   the first body line is read as one.
    package init(parsing plan: String, headings: [String], untimed: Set<String> = []) {
        self.headings = headings
        let lines = Self.lines(of: plan)
        self.lines = lines
        let reading = PlanReading(lines: lines, forms: headings.map(HeadingForm.init))
        let roles = reading.roles()
        sections = reading.sections(roles: roles, untimed: untimed)
        blocks = reading.blocks(roles: roles)
    }

    /// The first section under `heading`, if the plan has one.
    package func section(_ heading: String) -> PlanSection? {
        sections.first { $0.heading == heading }
    }

    /// Lines before the first section, such as a title.
    package var title: [String] {
        blocks.compactMap { if case .title(let text) = $0 { text } else { nil } }
    }

    /// The blocks of a section's body, by its line range.
    package func blocks(of section: PlanSection) -> ArraySlice<PlanBlock> {
        let lower = min(section.lineRange.lowerBound + 1, blocks.count)
        return blocks[lower..<min(section.lineRange.upperBound, blocks.count)]
    }

    /// Every part only the teacher should see, a teacher heading standing for the lines under it.
    package var teacherNotes: [TeacherNote] {
        var notes: [TeacherNote] = []
        for (index, block) in blocks.enumerated() {
            guard let reason = block.teacher else { continue }
            if reason == .underHeading {
                if let last = notes.indices.last, notes[last].reason == .heading {
                    if case .blank = block {} else { notes[last].linesUnder += 1 }
                }
                continue
            }
            notes.append(TeacherNote(line: ListMarker.plain(lines[index]), reason: reason, linesUnder: 0))
        }
        return notes
    }

    /// Whether any line opens a markdown code fence (```` ``` ```` or `~~~`).
    package var hasCodeFence: Bool {
        lines.contains { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~")
        }
    }

    /// Why a body line is the teacher's alone: a label or a minute stamp; nil for student text.
    static func teacherReason(_ text: String) -> TeacherReason? {
        if TeacherLabel.isLabelled(text) { return .label }
        if MinuteText.leadingStamp(in: text) != nil || MinuteText.trailingStamp(in: text) != nil { return .minuteStamp }
        return nil
    }

    /// Whether a short line standing after a blank line and right above a list names that list (`Practice`).
    static func isLabelForList(
        at index: Int, lines: [String], markers: [(kind: ListMarker.Kind, number: Int?, rest: Substring)?]
    ) -> Bool {
        guard index > 0, index + 1 < lines.count, markers[index + 1] != nil,
            lines[index - 1].trimmingCharacters(in: .whitespaces).isEmpty
        else { return false }
        let text = ListMarker.plain(lines[index])
        guard let first = text.first, first.isLetter, first.isUppercase, let last = text.last,
            last.isLetter || last.isNumber || last == ")", text.count <= 40
        else { return false }
        return text.split(whereSeparator: \.isWhitespace).count <= 5
    }

    /// The number of the next numbered item after `index`, before the next framework heading.
    static func nextListNumber(
        after index: Int, markers: [(kind: ListMarker.Kind, number: Int?, rest: Substring)?], matches: [HeadingMatch?]
    ) -> Int? {
        var next = index + 1
        while next < markers.count, next <= index + 12 {
            if matches[next] != nil { return nil }
            if let marker = markers[next], marker.kind == .numbered { return marker.number }
            next += 1
        }
        return nil
    }
}

/// How a heading-like line is written, so an unrecognised one can be compared with the plan's own headings.
enum HeadingStyle: Hashable, Sendable {
    case markdown(Int)
    case bold
    case numbered
    case plain
}

/// A line shaped like a heading: short, no sentence end, and written as headings are.
package struct HeadingShape: Sendable {
    let style: HeadingStyle
    /// The number in front (`9)`), if any.
    let number: Int?
    /// Shown text: without marks, numbering and a trailing colon.
    let text: String
    /// Shown text without a stated time.
    let plainText: String
    let minutes: Int?
    /// Every longer word capitalised, or all capitals.
    let titleLike: Bool
    let allCaps: Bool
    /// Six words or fewer.
    let short: Bool

    init?(_ line: String) {
        var text = line.trimmingCharacters(in: .whitespaces)
        // Blanks to fill in (`Answer: ______`) are a place to write, never a heading.
        guard text.count >= 2, text.count <= 80, text.contains(where: \.isLetter), !text.contains("___") else {
            return nil
        }
        var style = HeadingStyle.plain
        if text.hasPrefix("#") {
            let depth = text.prefix { $0 == "#" }.count
            guard depth <= 6 else { return nil }
            style = .markdown(depth)
            text = String(text.dropFirst(depth)).trimmingCharacters(in: .whitespaces)
        }
        var bold = false
        for mark in ["**", "__"] where text.hasPrefix(mark) {
            var inner = text.dropFirst(2)
            let closing = inner.hasSuffix(mark + ":") ? mark + ":" : mark
            guard inner.hasSuffix(closing), inner.count > closing.count else { continue }
            inner = inner.dropLast(closing.count)
            guard !inner.contains(mark) else { continue }
            text = String(inner) + (closing.hasSuffix(":") ? ":" : "")
            bold = true
        }
        if bold, case .plain = style { style = .bold }
        var number: Int?
        // Numbered the way list items are (``ListMarker``): the reader decides which of the two it is.
        if let lead = text.first, lead.isNumber || lead == "(", let marker = ListMarker.parse(text),
            marker.kind == .numbered, let written = marker.number
        {
            number = written
            text = String(marker.rest)
            if case .plain = style { style = .numbered }
            if case .bold = style { style = .numbered }
        }
        if text.contains("**") || text.contains("__") {
            text = text.replacingOccurrences(of: "**", with: "").replacingOccurrences(of: "__", with: "")
        }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "*_").union(.whitespaces))
        // Cheap refusals first: most body lines are sentences or list items.
        guard let first = text.first, first.isLetter, first.isUppercase || !first.isCased,
            let end = text.last, !".?!,;".contains(end), !text.contains("?")
        else { return nil }
        // A heading is a few words; a trailing time adds at most a few more.
        guard text.utf8.lazy.filter({ $0 == UInt8(ascii: " ") }).count <= 12 else { return nil }
        let endsWithColon = text.hasSuffix(":")
        let peeled = PlanDocument.peelSuffixes(text)
        let core = peeled.core.trimmingCharacters(in: .whitespaces)
        guard let last = core.last, !".?!,;".contains(last), !core.isEmpty else { return nil }
        let words = core.split(whereSeparator: \.isWhitespace)
        guard words.count <= 8 else { return nil }
        let letters = core.filter(\.isLetter)
        allCaps = letters.count >= 3 && letters.allSatisfy { $0.isUppercase || !$0.isCased }
        titleLike =
            allCaps
            || words.allSatisfy { word in
                word.count < 4 || word.first.map { $0.isUppercase || !$0.isLetter } ?? true
            }
        short = words.count <= 6
        minutes = peeled.minutes
        if case .plain = style {
            guard allCaps || (titleLike && (endsWithColon || peeled.minutes != nil)) else { return nil }
        }
        self.style = style
        self.number = number
        self.text = HeadingShape.shown(text)
        self.plainText = HeadingShape.withoutTime(self.text)
    }

    /// A heading as shown: without a trailing colon.
    static func shown(_ text: String) -> String {
        var shown = text
        while shown.hasSuffix(":") { shown = String(shown.dropLast()).trimmingCharacters(in: .whitespaces) }
        return shown
    }

    /// A heading without the time it states, for a page students read.
    package static func withoutTime(_ text: String) -> String {
        guard let time = MinuteText.trailingTime(in: Substring(text)) else { return text }
        return shown(String(text[..<time.start]).trimmingCharacters(in: .whitespaces))
    }
}

/// What a line of a plan is once the headings are known.
enum PlanLineRole { case body, section, sub }

/// One plan's lines as ``PlanDocument/init(parsing:headings:)`` reads them: pass 1 (framework headings, the
/// shapes of other heading-like lines, list markers), then a method per later pass.
struct PlanReading {
    let lines: [String]
    let matches: [HeadingMatch?]
    let shapes: [HeadingShape?]
    let markers: [(kind: ListMarker.Kind, number: Int?, rest: Substring)?]
    let clock: ClockRule
    let recognisedStyles: Set<HeadingStyle>
    let markdownDepth: Int?
    let hasFrameworkHeadings: Bool

    init(lines: [String], forms: [HeadingForm]) {
        self.lines = lines
        clock = lines.contains(where: MinuteText.usesLessonClock) ? .lessonClock : .firstHour
        let matches = lines.map { PlanDocument.matchHeading($0, forms: forms) }
        let shapes = lines.map(HeadingShape.init)
        self.matches = matches
        self.shapes = shapes
        markers = lines.map { ListMarker.parse(ListMarker.plain($0)) }
        recognisedStyles = Set(lines.indices.compactMap { matches[$0] != nil ? shapes[$0]?.style ?? .plain : nil })
        markdownDepth = lines.indices.compactMap { index -> Int? in
            guard matches[index] != nil, case .markdown(let depth) = shapes[index]?.style else { return nil }
            return depth
        }.min()
        hasFrameworkHeadings = matches.contains { $0 != nil }
    }

    /// Pass 2: which lines are headings, and which of those open sections.
    func roles() -> [PlanLineRole] {
        var roles = Array(repeating: PlanLineRole.body, count: lines.count)
        var lastSectionNumber: Int?
        var lastItemNumber: Int?
        var seenSection = false
        var seenText = false
        for index in lines.indices {
            let blank = lines[index].trimmingCharacters(in: .whitespaces).isEmpty
            defer { if !blank { seenText = true } }
            if let shape = shapes[index], matches[index] != nil {
                roles[index] = .section
                seenSection = true
                lastItemNumber = nil
                if let number = shape.number { lastSectionNumber = number }
                continue
            }
            if matches[index] != nil {
                roles[index] = .section
                seenSection = true
                lastItemNumber = nil
                continue
            }
            guard let shape = shapes[index] else {
                if let marker = markers[index], marker.kind == .numbered { lastItemNumber = marker.number }
                if markers[index] == nil, seenText, PlanDocument.isLabelForList(at: index, lines: lines, markers: markers) {
                    roles[index] = hasFrameworkHeadings ? .sub : .section
                    if !hasFrameworkHeadings { seenSection = true }
                }
                continue
            }
            let restarts =
                (shape.number ?? 0) >= 2 && lastItemNumber != (shape.number ?? 0) - 1
                && PlanDocument.nextListNumber(after: index, markers: markers, matches: matches) == 1
            let continues =
                shape.number.map { number in
                    (lastSectionNumber.map { number == $0 + 1 } ?? (number == 1 && !seenSection))
                        && lastItemNumber != number - 1
                } ?? false
            if !seenSection, !seenText, shape.number == nil, matches[index] == nil {
                continue  // the plan's own title
            }
            let opens: Bool
            switch shape.style {
            case .numbered:
                opens = (continues && shape.short) || (shape.titleLike && (restarts || shape.minutes != nil))
                if !opens {
                    if let marker = markers[index], marker.kind == .numbered { lastItemNumber = marker.number }
                    continue
                }
            case .markdown(let depth):
                opens = !hasFrameworkHeadings || depth <= (markdownDepth ?? 6) || shape.minutes != nil
            case .bold, .plain:
                opens =
                    !hasFrameworkHeadings
                    || (recognisedStyles.contains(shape.style) && (shape.minutes != nil || shape.allCaps))
            }
            roles[index] = opens ? .section : .sub
            if opens {
                seenSection = true
                lastItemNumber = nil
                if let number = shape.number { lastSectionNumber = number }
            }
        }

        return roles
    }

    /// Pass 3: the sections and their times.
    func sections(roles: [PlanLineRole], untimed: Set<String>) -> [PlanSection] {
        var sections: [PlanSection] = []
        let starts = lines.indices.filter { roles[$0] == .section }
        var timedBefore = false
        for (position, start) in starts.enumerated() {
            guard let match = matches[start] else { continue }
            let end = position + 1 < starts.count ? starts[position + 1] : lines.count
            let body = PlanDocument.trimmedBlankEdges(Array(lines[(start + 1)..<end]))
            let time = PlanDocument.sectionTime(
                headingLine: match, body: body, clock: clock, bodyMayStartAtZero: !timedBefore,
                timed: !untimed.contains(match.heading))
            if time.minutes != nil { timedBefore = true }
            sections.append(
                PlanSection(
                    heading: match.heading, title: lines[start].trimmingCharacters(in: .whitespaces),
                    lineRange: start..<end, body: body, minutes: time.minutes, start: time.span?.lowerBound,
                    end: time.span?.upperBound))
        }
        return sections

    }

    /// Pass 4: the blocks, with list numbering and teacher-only parts.
    func blocks(roles: [PlanLineRole]) -> [PlanBlock] {
        var blocks: [PlanBlock] = []
        blocks.reserveCapacity(lines.count)
        var counters: [(indent: Int, count: Int)] = []
        var teacherSection = false
        var teacherSub = false
        var inTitle = true
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                blocks.append(.blank)
                continue
            }
            if inTitle, roles[index] == .body, markers[index] == nil {
                // Blanks to write on keep their underscores; other title lines lose their markup.
                blocks.append(.title(trimmed.contains("___") ? trimmed : PlanDocument.withoutMarkup(trimmed)))
                continue
            }
            inTitle = false
            if roles[index] != .body {
                let shape = shapes[index]
                let unmarked = PlanDocument.withoutMarkup(trimmed)
                let text =
                    matches[index] != nil
                    ? HeadingShape.shown(PlanDocument.withoutNumbering(unmarked) ?? unmarked) : (shape?.text ?? unmarked)
                let plainText = HeadingShape.withoutTime(text)
                let minutes = matches[index]?.minutes ?? shape?.minutes
                let isTeacher = TeacherLabel.isTeacherHeading(PlanDocument.key(plainText))
                if roles[index] == .section {
                    teacherSection = isTeacher
                    teacherSub = false
                } else {
                    teacherSub = isTeacher
                }
                counters = []
                let reason: TeacherReason? =
                    isTeacher ? .heading : (teacherSection ? .underHeading : (minutes != nil ? .minuteStamp : nil))
                blocks.append(
                    .heading(
                        PlanHeading(
                            text: text, plainText: plainText, framework: matches[index]?.heading,
                            opensSection: roles[index] == .section, minutes: minutes, teacher: reason)))
                continue
            }
            let under: TeacherReason? = (teacherSection || teacherSub) ? .underHeading : nil
            let plain = ListMarker.plain(line)
            if let marker = markers[index] {
                let indent = ListMarker.indent(of: line)
                let rest = String(marker.rest).trimmingCharacters(in: CharacterSet(charactersIn: "*_").union(.whitespaces))
                var number: Int?
                if marker.kind == .numbered {
                    while let last = counters.last, last.indent > indent { counters.removeLast() }
                    let next: Int
                    if let last = counters.last, last.indent == indent {
                        next = marker.number == 1 ? 1 : last.count + 1
                        counters[counters.count - 1].count = next
                    } else {
                        next = 1
                        counters.append((indent, 1))
                    }
                    number = next
                }
                let markerText = String(plain[..<marker.rest.startIndex]).trimmingCharacters(in: .whitespaces)
                blocks.append(
                    .item(
                        PlanItem(
                            kind: marker.kind, number: number, marker: markerText, text: rest, indent: indent,
                            teacher: under ?? PlanDocument.teacherReason(rest))))
            } else {
                blocks.append(.text(PlanText(text: plain, teacher: under ?? PlanDocument.teacherReason(plain))))
            }
        }
        return blocks
    }
}
