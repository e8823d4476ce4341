import Foundation

/// One weakness in what a plan says (not in its shape), naming the section and quoting the line.
///
/// The structure check (``PlanProblem``) says whether the plan has the right parts; a content note says
/// that a part is weak: a line copied into several sections, a check for understanding that asks nothing,
/// an objective nobody could observe. Each is one sentence a teacher understands.
package struct ContentNote: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// What kind of weakness, as written to the transcript (`kind`).
    package enum Kind: String, Codable, Equatable, Hashable, Sendable, CaseIterable {
        /// The same or nearly the same line in more than one section.
        case repeatedLine = "repeated_line"
        /// A section whose lines all repeat another section's.
        case repeatedSection = "repeated_section"
        /// A CFU item that is neither a question nor a task.
        case cfuNotQuestion = "cfu_not_question"
        /// A CFU none of whose items is a question or a task: nothing checks what students learned.
        case cfuNoQuestion = "cfu_no_question"
        /// A CFU item that asks nothing about the lesson ("Any questions?").
        case cfuVague = "cfu_vague"
        /// An exit-ticket prompt that repeats a CFU item.
        case exitRepeatsCFU = "exit_repeats_cfu"
        /// An objective with no observable, measurable verb.
        case objectiveVerb = "objective_verb"
        /// The topic's words are absent from the instruction and practice sections.
        case topicAbsent = "topic_absent"
        /// The exit ticket shares no content word with the objective.
        case exitOffObjective = "exit_off_objective"
        /// An activity names a material that Materials does not list.
        case unlistedMaterial = "unlisted_material"
        /// An empty section or a placeholder line ("TBD", "…", "insert here").
        case placeholder
        /// A code cited as a standard that is no standard (`4.NF.9`).
        case unknownStandard = "unknown_standard"
        /// A real standard for a grade band other than the lesson's.
        case standardOutsideBand = "standard_outside_band"
        /// A line that asks what a cited NGSS expectation's assessment boundary leaves out.
        case pastBoundary = "past_boundary"

        /// Whether the kind is advice, shown to the teacher and sent only when they ask (`/repair`), rather
        /// than a problem that makes the plan unusable as written and starts the one automatic repair.
        ///
        /// Problems: a section that only repeats another, an empty or placeholder section, a check for
        /// understanding that asks nothing, a plan that never names its topic. The rest are advice: on the
        /// good-plan corpus each of them was sometimes false (docs/plan-check.md), and none stops a teacher
        /// teaching the plan.
        package var isAdvice: Bool {
            switch self {
            case .repeatedSection, .placeholder, .cfuNoQuestion, .topicAbsent, .unknownStandard: false
            case .repeatedLine, .cfuNotQuestion, .cfuVague, .exitRepeatsCFU, .objectiveVerb, .exitOffObjective,
                .unlistedMaterial, .standardOutsideBand, .pastBoundary:
                true
            }
        }
    }

    package var kind: Kind
    /// The framework heading of the section the note is about.
    package var section: String
    /// The line quoted, as the plan writes it (trimmed, without its list marker); empty when none is.
    package var quote: String
    /// The other sections involved (where a line repeats), or the words missing (topic), or the material named.
    package var others: [String]

    package init(_ kind: Kind, section: String, quote: String = "", others: [String] = []) {
        self.kind = kind
        self.section = section
        self.quote = quote
        self.others = others
    }

    /// One sentence a teacher can act on.
    package var description: String {
        let line = "“\(Self.shortened(quote))”"
        switch kind {
        case .repeatedLine:
            return "\(section) and \(Self.joined(others)) repeat the same line, \(line); give each section its own."
        case .repeatedSection:
            return "\(section) only repeats \(Self.joined(others)) (it opens with \(line)); write what students do in this part."
        case .cfuNotQuestion:
            return "\(section): \(line) is not a question or a task students answer; ask something they must answer."
        case .cfuNoQuestion:
            return "\(section) asks nothing students answer (it opens with \(line)); write questions or tasks that show what they learned."
        case .cfuVague:
            return "\(section): \(line) does not check what students learned; ask about the lesson itself."
        case .exitRepeatsCFU:
            return "\(section): \(line) repeats \(Self.joined(others)) word for word; ask something new to see what stuck."
        case .objectiveVerb:
            return "\(section): \(line) has no observable verb (such as explain, solve, compare); say what students will do to show it."
        case .topicAbsent:
            return
                "No section of the plan mentions \(Self.joined(quote.isEmpty ? [] : [quote], quoted: true)), the lesson’s topic; teach the topic the lesson is for."
        case .exitOffObjective:
            return
                "\(section) shares no words with the objective (“\(Self.shortened(others.first ?? ""))”); ask about what the objective says students will do."
        case .unlistedMaterial:
            return "\(section) uses “\(others.first ?? "")” (\(line)), but Materials does not list it."
        case .placeholder:
            return quote.isEmpty
                ? "\(section) is empty; write what happens in it."
                : "\(section): \(line) is a placeholder; write the real content."
        case .unknownStandard:
            let sentence = others.first ?? "\(quote) is not a standard."
            return "\(section): \(sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence); cite a real code or none."
        case .standardOutsideBand:
            return "\(section): \(others.first ?? "\(quote) is for another grade band.") Check that it is the standard this lesson meets."
        case .pastBoundary:
            return
                "\(section): \(line) may go past \(others.first ?? "the standard")'s assessment boundary (“\(Self.shortened(others.dropFirst().first ?? ""))”)."
        }
    }

    /// Whether the note is advice rather than a problem (see ``Kind/isAdvice``).
    package var isAdvice: Bool { kind.isAdvice }

    /// How much a note weighs against the structure's problems in deciding whether a repair is better:
    /// advice weighs 1 and a content problem 3, as much as a miscounted exit ticket.
    package var severity: Int { isAdvice ? 1 : 3 }

    private static func shortened(_ text: String) -> String {
        text.count <= 90 ? text : String(text.prefix(87)).trimmingCharacters(in: .whitespaces) + "…"
    }

    static func joined(_ items: [String], quoted: Bool = false) -> String {
        (quoted ? items.map { "“\($0)”" } : items).listed()
    }
}

/// Checks what a plan says, section by section, beside the structure check (``PlanChecker``).
///
/// Sections are found by their role in the framework (`checks.txt`): the objective, the materials, the
/// activities (instruction and practice), the CFU and the exit ticket; a role the framework lacks turns
/// its checks off. The thresholds, measured over the test corpus (see `docs/plan-check.md`):
/// - a repeated line is one whose normalised words are the same as another section's line, or share at
///   least ``nearDuplicate`` of their distinct words (Jaccard) when both lines have ``nearDuplicateWords``
///   or more; lines of fewer than ``shortestRepeated`` words are left out (a "Pair-share." can repeat);
/// - a section repeats another wholesale when it has two or more lines and each repeats a line of that one.
package struct ContentChecker: Sendable {
    /// The least Jaccard similarity of two lines' word sets for them to count as nearly the same.
    package static let nearDuplicate = 0.8
    /// The fewest words both lines need for a near (not exact) match.
    package static let nearDuplicateWords = 6
    /// The fewest words a line needs to be reported as repeated on its own: a shorter one ("Pair-share.", a
    /// vocabulary strip, a line of code) is something a plan names again, not a section copied.
    package static let shortestRepeated = 6

    package var objectiveHeading: String?
    package var materialsHeading: String?
    package var activityHeadings: [String]
    package var cfuHeading: String?
    package var exitTicketHeading: String?
    package var warmUpHeading: String?
    package var verbs: CheckWords

    package init(
        objectiveHeading: String?, materialsHeading: String?, activityHeadings: [String], cfuHeading: String?,
        exitTicketHeading: String?, warmUpHeading: String? = nil, verbs: CheckWords = .builtIn
    ) {
        self.warmUpHeading = warmUpHeading
        self.objectiveHeading = objectiveHeading
        self.materialsHeading = materialsHeading
        self.activityHeadings = activityHeadings
        self.cfuHeading = cfuHeading
        self.exitTicketHeading = exitTicketHeading
        self.verbs = verbs
    }

    /// What this checker looks at, in a few words each, so a ✓ says exactly what was checked.
    package var checks: [String] {
        var checks = ["no line repeated across sections", "no empty section or placeholder"]
        if cfuHeading != nil { checks.append("every \(cfuHeading ?? "") item is a question or a task") }
        if cfuHeading != nil, exitTicketHeading != nil { checks.append("the \(exitTicketHeading ?? "") does not repeat them") }
        if objectiveHeading != nil { checks.append("the objective has an observable verb") }
        if !activityHeadings.isEmpty { checks.append("the lesson’s activities name the topic") }
        if objectiveHeading != nil, exitTicketHeading != nil { checks.append("the \(exitTicketHeading ?? "") shares words with the objective") }
        if materialsHeading != nil { checks.append("every material an activity uses is listed") }
        return checks
    }

    /// One content line of a section: as written (for quoting) and its normalised words.
    struct Line {
        let section: String
        let text: String
        let words: [String]
        /// Whether the line is code shown to students (indented, or mostly symbols), which a plan may show
        /// in one section and use again in another.
        var isCode = false
        var normalised: String { words.joined(separator: " ") }
    }

    /// Every content note of a plan already read; `topic` nil leaves the topic check out.
    package func notes(_ document: PlanDocument, topic: String?) -> [ContentNote] {
        var seen: Set<String> = []
        let sections = document.sections.filter { seen.insert($0.heading).inserted }
        let lines = sections.map { section in (section, Self.contentLines(of: section)) }
        var notes: [ContentNote] = []
        notes += placeholders(lines)
        notes += repetition(lines)
        notes += cfuItems(document)
        notes += exitTicketRepeats(document)
        notes += objectiveVerb(document)
        if let topic { notes += topicAbsent(document, topic: topic) }
        notes += exitOffObjective(document, topic: topic)
        notes += unlistedMaterials(document)
        return notes
    }

    // MARK: Lines

    /// A section's lines that say something: list markers, minute stamps and labels ending in `:` taken off.
    static func contentLines(of section: PlanSection) -> [Line] {
        section.body.compactMap { raw in
            let text = quotable(raw)
            let words = ContentText.words(text)
            guard !words.isEmpty, !text.hasSuffix(":") else { return nil }
            // A line that is only a time, `(12 min)` or `Minutes 5–17`, says nothing.
            if words.allSatisfy({ $0.allSatisfy(\.isNumber) || ["min", "mins", "minute", "minutes"].contains($0) }) {
                return nil
            }
            return Line(section: section.heading, text: text, words: words, isCode: Self.looksLikeCode(raw))
        }
    }

    /// Whether a body line is code: indented four columns without a list marker, or with several of `=(){};[]`.
    static func looksLikeCode(_ raw: String) -> Bool {
        if ListMarker.indent(of: raw) >= 4, ListMarker.parse(ListMarker.plain(raw)) == nil { return true }
        return raw.filter { "=(){};[]<>".contains($0) }.count >= 3
    }

    /// A body line as quoted: no list marker, no bold, no leading minute stamp.
    static func quotable(_ line: String) -> String {
        var text = ListMarker.plain(line)
        if let marker = ListMarker.parse(text) { text = String(marker.rest) }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "*_").union(.whitespaces))
        if let stamp = MinuteText.leadingStamp(in: text) {
            text = String(text[stamp.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: ":–—- ").union(.whitespaces))
        }
        return text
    }

    /// Jaccard similarity of two word lists as sets.
    package static func similarity(_ a: [String], _ b: [String]) -> Double {
        let left = Set(a)
        let right = Set(b)
        let union = left.union(right).count
        return union == 0 ? 0 : Double(left.intersection(right).count) / Double(union)
    }

    /// Whether two lines are the same, or nearly the same by the thresholds above.
    package static func same(_ a: [String], _ b: [String]) -> Bool {
        if a == b { return true }
        guard a.count >= nearDuplicateWords, b.count >= nearDuplicateWords else { return false }
        return similarity(a, b) >= nearDuplicate
    }

    // MARK: Checks

    private static let placeholderTexts: Set<String> = [
        "tbd", "tba", "todo", "to do", "tk", "xxx", "insert here", "fill in", "fill in later", "placeholder",
        "lorem ipsum", "coming soon", "add here", "insert text", "insert activity", "etc",
    ]

    /// Empty sections and lines that hold a place instead of content.
    func placeholders(_ sections: [(PlanSection, [Line])]) -> [ContentNote] {
        var notes: [ContentNote] = []
        for (section, lines) in sections {
            let written = section.body.map(Self.quotable).filter { !$0.isEmpty }
            if written.isEmpty || (lines.isEmpty && written.allSatisfy { ContentText.words($0).isEmpty }) {
                if section.body.allSatisfy({ ContentText.words($0).isEmpty }) || written.isEmpty {
                    notes.append(ContentNote(.placeholder, section: section.heading))
                    continue
                }
            }
            for raw in section.body {
                let text = Self.quotable(raw)
                guard !text.isEmpty else { continue }
                let normalised = ContentText.normalised(text)
                let bare = text.trimmingCharacters(in: CharacterSet(charactersIn: "…. []()<>").union(.whitespaces))
                let isPlaceholder =
                    (bare.isEmpty && !text.isEmpty)
                    || Self.placeholderTexts.contains(normalised)
                    || normalised.hasPrefix("insert ") && (text.hasPrefix("[") || text.hasPrefix("<") || normalised.hasSuffix(" here"))
                    || normalised.hasPrefix("tbd ") || normalised.hasSuffix(" tbd")
                if isPlaceholder { notes.append(ContentNote(.placeholder, section: section.heading, quote: text)) }
            }
        }
        return notes
    }

    /// Lines repeated across sections, and sections that repeat another wholesale.
    func repetition(_ all: [(PlanSection, [Line])]) -> [ContentNote] {
        // A material listed and then used, code or a sentence frame shown and then used again, is not a copied line.
        let sections = all.filter { $0.0.heading != materialsHeading }.map { ($0.0, $0.1.filter { !$0.isCode && !Self.isFrame($0.text) }) }
        var notes: [ContentNote] = []
        // A section that only repeats an earlier one gets one note, and its lines no note of their own.
        var wholesale: Set<String> = []
        for (index, entry) in sections.enumerated() where entry.1.count >= 2 {
            for earlier in sections[..<index] where !wholesale.contains(earlier.0.heading) {
                let lines = entry.1
                let covered = lines.allSatisfy { line in earlier.1.contains { Self.same($0.words, line.words) } }
                if covered, !isCFUExitPair(entry.0.heading, earlier.0.heading) {
                    notes.append(
                        ContentNote(.repeatedSection, section: entry.0.heading, quote: lines[0].text, others: [earlier.0.heading]))
                    wholesale.insert(entry.0.heading)
                    break
                }
            }
        }
        var reported: [[String]] = []
        for (index, entry) in sections.enumerated() where !wholesale.contains(entry.0.heading) {
            for line in entry.1 where line.words.count >= Self.shortestRepeated {
                guard !reported.contains(where: { Self.same($0, line.words) }) else { continue }
                var others: [String] = []
                for later in sections[(index + 1)...] where !wholesale.contains(later.0.heading) {
                    if isCFUExitPair(entry.0.heading, later.0.heading) { continue }
                    if later.1.contains(where: { Self.same($0.words, line.words) }) { others.append(later.0.heading) }
                }
                if !others.isEmpty {
                    reported.append(line.words)
                    notes.append(ContentNote(.repeatedLine, section: entry.0.heading, quote: line.text, others: others))
                }
            }
        }
        return notes
    }

    /// Whether a line shows students words to use rather than saying what happens: a sentence frame with blanks
    /// (`I think ___ because ___.`, `I think _ because _.`: underscores standing as a word), or a line that is one
    /// quotation after an optional short label (`Frame on the board: “…”`).
    static func isFrame(_ text: String) -> Bool {
        if text.firstMatch(of: blank.regex) != nil { return true }
        var rest = Substring(text)
        if let colon = rest.firstIndex(of: ":"), rest[..<colon].split(separator: " ").count <= 5 {
            rest = rest[rest.index(after: colon)...]
        }
        let trimmed = rest.trimmingCharacters(in: .whitespaces)
        guard let open = trimmed.first, "“\"«„".contains(open), let close = trimmed.dropLast(trimmed.last == "." ? 1 : 0).last else {
            return false
        }
        return "”\"»“".contains(close)
    }

    /// A blank to fill in: a run of underscores with no letter or digit either side (not `snake_case`).
    private static let blank = SharedRegex(/(?:^|[^\p{L}\p{N}_])_+(?:[^\p{L}\p{N}_]|$)/)

    /// The CFU and the exit ticket are compared by ``exitTicketRepeats(_:)``, which says it better.
    private func isCFUExitPair(_ a: String, _ b: String) -> Bool {
        guard let cfuHeading, let exitTicketHeading else { return false }
        return Set([a, b]) == Set([cfuHeading, exitTicketHeading])
    }

    private static let vagueQuestions: Set<String> = [
        "any questions", "questions", "does everyone understand", "do you understand", "does that make sense",
        "does this make sense", "is everyone ok", "are there any questions", "do you have any questions",
        "do we understand", "everyone got it", "got it", "ok", "okay", "is that clear", "is this clear",
    ]

    /// Words that open a line the teacher does rather than a question students answer: still a check.
    private static let teacherMoves: Set<String> = [
        "ask", "have", "call", "cold", "thumbs", "fist", "whiteboard", "whiteboards", "observe", "circulate",
        "check", "collect", "listen", "monitor", "turn", "think", "poll", "quick", "exit", "students", "student",
        "pairs", "partners", "groups", "each", "quiz", "hold", "raise", "vote", "self", "rate",
    ]

    /// CFU items that are neither questions nor tasks, and questions that check nothing; a CFU none of whose
    /// items asks anything is one problem instead.
    func cfuItems(_ document: PlanDocument) -> [ContentNote] {
        guard let cfuHeading, let section = document.section(cfuHeading) else { return [] }
        var notes: [ContentNote] = []
        var asking = 0
        var first: String?
        for item in PlanChecker.items(section.body, counting: false) {
            let text = Self.quotable(item)
            let normalised = ContentText.normalised(text)
            guard !normalised.isEmpty else { continue }
            if first == nil { first = text }
            if Self.vagueQuestions.contains(normalised) {
                notes.append(ContentNote(.cfuVague, section: cfuHeading, quote: text))
            } else if !text.contains("?"), !isTask(text) {
                notes.append(ContentNote(.cfuNotQuestion, section: cfuHeading, quote: text))
            } else {
                asking += 1
            }
        }
        if asking == 0, let first, notes.count >= 2 {
            return [ContentNote(.cfuNoQuestion, section: cfuHeading, quote: first)]
        }
        return notes
    }

    /// Whether a line asks students to do something: one of its sentences opens (after a label) with a listed
    /// verb, a task verb or a teacher move ("Jamal says 2/3 + 1/4 = 3/7. Write one sentence …").
    func isTask(_ text: String) -> Bool {
        let openers = CharacterSet(charactersIn: ".!;:…")
        let sentences = text.components(separatedBy: openers).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return sentences.contains { opensWithTask(ContentText.words($0)) }
    }

    /// Whether words open with a task: a teacher move, an observable verb or a task verb, after fillers.
    private func opensWithTask(_ words: [String]) -> Bool {
        var words = words
        while let first = words.first, ["please", "now", "then", "first", "next", "finally", "also", "and"].contains(first) {
            words.removeFirst()
        }
        guard let first = words.first else { return false }
        if Self.teacherMoves.contains(first) { return true }
        let stem = ContentText.stem(first)
        return verbs.counted.contains(stem) || verbs.tasks.contains(stem)
    }

    /// Exit-ticket prompts that repeat a CFU item.
    func exitTicketRepeats(_ document: PlanDocument) -> [ContentNote] {
        guard let cfuHeading, let exitTicketHeading, let cfu = document.section(cfuHeading),
            let exit = document.section(exitTicketHeading)
        else { return [] }
        let questions = PlanChecker.items(cfu.body, counting: false).map { ContentText.words(Self.quotable($0)) }
        var notes: [ContentNote] = []
        for prompt in PlanChecker.items(exit.body, counting: false) {
            let text = Self.quotable(prompt)
            let words = ContentText.words(text)
            guard words.count >= 2, questions.contains(where: { Self.same($0, words) }) else { continue }
            notes.append(ContentNote(.exitRepeatsCFU, section: exitTicketHeading, quote: text, others: [cfuHeading]))
        }
        return notes
    }

    /// An objective none of whose lines has an observable verb that is not governed by one that never counts.
    func objectiveVerb(_ document: PlanDocument) -> [ContentNote] {
        guard let objectiveHeading, let section = document.section(objectiveHeading) else { return [] }
        let lines = Self.contentLines(of: section)
        guard let first = lines.first else { return [] }
        if lines.contains(where: { hasObservableVerb($0.words) }) { return [] }
        return [ContentNote(.objectiveVerb, section: objectiveHeading, quote: first.text)]
    }

    /// Whether a line has a listed verb not within three words after a verb that never counts.
    package func hasObservableVerb(_ words: [String]) -> Bool {
        let stems = words.map(ContentText.stem)
        var blockedUntil = -1
        for index in stems.indices {
            for excluded in verbs.excluded where index + excluded.count <= stems.count {
                if Array(stems[index..<(index + excluded.count)]) == excluded {
                    blockedUntil = index + excluded.count + 3
                }
            }
            if index >= blockedUntil, verbs.counted.contains(stems[index]),
                !verbs.excluded.contains(where: { $0.first == stems[index] })
            {
                return true
            }
        }
        return false
    }

    /// A plan none of whose sections (Materials aside) says any of the topic's content words: nothing about the
    /// topic anywhere, which makes it a problem.
    ///
    /// The words are those outside brackets (`Repeating code with for loops (Python turtle)`), single letters
    /// left out (`U.S.`). Searching only the activities for half the words flagged good plans that teach the
    /// topic by its parts: "melting" and "freezing" for "Heating and cooling change matter", "a for loop with
    /// range()" for "Repeating code", named in the objective (docs/plan-check.md).
    func topicAbsent(_ document: PlanDocument, topic: String) -> [ContentNote] {
        guard !activityHeadings.isEmpty else { return [] }
        var searched: [String] = []
        for section in document.sections where section.heading != materialsHeading && !searched.contains(section.heading) {
            searched.append(section.heading)
        }
        guard !searched.isEmpty else { return [] }
        let unbracketed = topic.replacing(Self.bracketed, with: " ")
        var topicWords: [(word: String, stem: String)] = []
        for source in [unbracketed, topic] where topicWords.isEmpty {
            for word in ContentText.words(source)
            where !ContentText.stopWords.contains(word) && !word.allSatisfy(\.isNumber) && word.count > 1 {
                let stem = ContentText.stem(word)
                if !topicWords.contains(where: { $0.stem == stem }) { topicWords.append((word, stem)) }
            }
        }
        guard !topicWords.isEmpty else { return [] }
        let text = searched.compactMap { document.section($0) }.flatMap(\.body).joined(separator: " ")
        let written = Set(ContentText.words(text).map(ContentText.stem))
        guard topicWords.allSatisfy({ !written.contains($0.stem) }) else { return [] }
        return [
            ContentNote(.topicAbsent, section: searched[0], quote: topicWords.map(\.word).joined(separator: " "), others: Array(searched.dropFirst()))
        ]
    }

    private static let bracketed = SharedRegex(/[(\[][^()\[\]]*[)\]]/)

    /// An exit ticket with no content word in common with the objective, the topic or what the lesson teaches.
    ///
    /// The objective alone flagged exit tickets that ask about the lesson in its own words: "Name one input.
    /// Name one output." under "explain how plants turn light into chemical energy", whose instruction
    /// teaches the inputs and outputs (docs/plan-check.md).
    func exitOffObjective(_ document: PlanDocument, topic: String?) -> [ContentNote] {
        guard let objectiveHeading, let exitTicketHeading, let objective = document.section(objectiveHeading),
            let exit = document.section(exitTicketHeading), let first = Self.contentLines(of: objective).first
        else { return [] }
        var taught = Self.contentLines(of: objective).map(\.text) + [topic ?? ""]
        for heading in activityHeadings where heading != exitTicketHeading {
            taught += document.section(heading).map { Self.contentLines(of: $0).map(\.text) } ?? []
        }
        let lessonWords = ContentText.contentStems(taught.joined(separator: " "))
        let exitLines = Self.contentLines(of: exit)
        let exitWords = ContentText.contentStems(exitLines.map(\.text).joined(separator: " "))
        guard !lessonWords.isEmpty, !exitWords.isEmpty, lessonWords.isDisjoint(with: exitWords) else { return [] }
        return [ContentNote(.exitOffObjective, section: exitTicketHeading, quote: exitLines.first?.text ?? "", others: [first.text])]
    }

    // "use fraction strips", "hand out the worksheet", "give each pair a ruler": the words after such a verb.
    private static let materialVerb = SharedRegex(
        /(?i)\b(?:use|uses|using|hand out|hands out|pass out|passes out|distribute|distributes|give each (?:pair|group|student|table|team)(?: of students)?|give every (?:pair|group|student)|each (?:pair|group|student) (?:gets|receives))\s+(?:(?:a|an|the|their|his|her|one|two|three|four|five|six|\d+)\s+)?(?:(?:set|sets|copy|copies|sheet|sheets|pack|packs|box|boxes|bag|bags|pair|pairs) of\s+)?([A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*)?)/
    )

    /// Words after "use" that name no thing to hand out.
    private static let notMaterials: Set<String> = [
        "it", "this", "that", "these", "those", "them", "what", "knowledge", "strategy", "strategies", "skill",
        "skills", "word", "words", "evidence", "example", "examples", "information", "idea", "ideas", "reasoning",
        "vocabulary", "language", "time", "method", "methods", "step", "steps", "rule", "rules", "formula",
        "formulas", "term", "terms", "sentence", "sentences", "details", "detail", "context", "clue", "clues",
        "prior", "background", "same", "different", "own", "other", "and", "to", "for", "in", "of", "on", "with",
        "as", "key", "new", "math", "mathematical", "precise", "complete", "correct", "appropriate", "units",
        "unit", "model", "models", "pattern", "patterns", "data", "results", "result", "observations", "notes",
        "thinking", "academic", "picture", "pictures", "mental", "estimation", "properties", "property",
        "structure", "think", "turn", "talk", "partner", "partners", "feedback", "frames", "frame", "sentence-frames",
        // Measured on ten offline plans (docs/plan-check.md): "uses sunlight to convert", "use only 75 items",
        // "use while studying", "use multiple lines" name no thing a teacher hands out.
        "only", "while", "because", "both", "such", "multiple", "several", "various", "many", "lots", "sunlight",
        "light", "energy", "heat",
    ]

    /// Materials the warm-up or an activity names after "use", "hand out" or "give each pair" that Materials never mentions.
    func unlistedMaterials(_ document: PlanDocument) -> [ContentNote] {
        guard let materialsHeading, let materials = document.section(materialsHeading) else { return [] }
        let listed = Set(ContentText.words(materials.body.joined(separator: " ")).map(ContentText.stem))
        var named: Set<String> = []
        var notes: [ContentNote] = []
        var searched: [String] = []
        for heading in [warmUpHeading].compactMap({ $0 }) + activityHeadings where !searched.contains(heading) {
            searched.append(heading)
        }
        for heading in searched {
            guard let section = document.section(heading) else { continue }
            for line in Self.contentLines(of: section) {
                for match in line.text.matches(of: Self.materialVerb.regex) {
                    let phrase = ContentText.words(String(match.1))
                    // The noun is the last word that still names a thing: "fraction strips to" → "fraction strips".
                    var words: [String] = []
                    for word in phrase {
                        if ContentText.stopWords.contains(word) || Self.notMaterials.contains(word) { break }
                        words.append(word)
                    }
                    guard let noun = words.last, noun.count > 2 else { continue }
                    let stems = words.map(ContentText.stem)
                    // Only a thing to hand out (material-nouns.txt) as the noun the phrase ends in: "a loop", "the rest
                    // of the excerpt" and "string repetition" name none.
                    guard verbs.materials.contains(ContentText.stem(noun)) else { continue }
                    guard !stems.contains(where: { listed.contains($0) }) else { continue }
                    let thing = words.joined(separator: " ")
                    guard named.insert(thing).inserted else { continue }
                    notes.append(ContentNote(.unlistedMaterial, section: heading, quote: line.text, others: [thing]))
                }
            }
        }
        return notes
    }
}
