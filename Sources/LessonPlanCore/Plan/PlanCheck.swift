import Foundation

/// One way a plan breaks the rules the prompt gave the model, worded for the teacher.
package enum PlanProblem: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// An expected heading never appears.
    case missingHeading(String)
    /// An expected heading appears more than once.
    case duplicateHeading(String)
    /// A heading appears, but not in the framework's order.
    case outOfOrder(String)
    /// The timed sections add up to the wrong number of minutes.
    case pacingTotal(found: Int, expected: Int)
    /// No section names a time, so pacing cannot be checked.
    case noPacing
    /// The warm-up takes the wrong number of minutes.
    case warmUpMinutes(found: Int, expected: Int)
    /// The Check for Understanding asks too few questions.
    case tooFewCFUQuestions(found: Int, minimum: Int)
    /// The exit ticket has the wrong number of prompts.
    case exitTicketPrompts(found: Int, expected: Int)
    /// The plan contains a markdown code fence although it should be plain text.
    case codeFence

    /// One sentence a teacher can act on.
    package var description: String {
        switch self {
        case .missingHeading(let heading):
            "The plan has no “\(heading)” section."
        case .duplicateHeading(let heading):
            "“\(heading)” appears more than once; keep one section."
        case .outOfOrder(let heading):
            "“\(heading)” is out of order; the sections should follow the framework’s order."
        case .pacingTotal(let found, let expected):
            "Pacing adds up to \(found) min, not \(expected)."
        case .noPacing:
            "No section says how many minutes it takes, so the pacing cannot be checked."
        case .warmUpMinutes(let found, let expected):
            "The warm-up takes \(found) min; it should take \(expected)."
        case .tooFewCFUQuestions(let found, let minimum):
            "Check for Understanding has \(Self.count(found, "question")); it needs at least \(minimum)."
        case .exitTicketPrompts(let found, let expected):
            "Exit Ticket has \(Self.count(found, "prompt")); it needs exactly \(expected)."
        case .codeFence:
            "The plan contains a code fence (```); it should be plain text."
        }
    }

    /// How much the problem hurts a plan; structure weighs most, and pacing weighs more the further off it is.
    package var severity: Int {
        switch self {
        case .missingHeading: 10
        case .noPacing: 8
        case .duplicateHeading, .outOfOrder: 4
        case .pacingTotal(let found, let expected): 3 + min(abs(found - expected), 15) / 5
        case .tooFewCFUQuestions, .exitTicketPrompts, .codeFence: 3
        case .warmUpMinutes: 2
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
    }
}

extension PlanProblem {
    // On disk a problem is `{"kind": "pacing_total", "found": 50, "expected": 45}`: a tag and named numbers,
    // so a transcript reads without knowing Swift's enum coding.
    private enum CodingKeys: String, CodingKey {
        case kind, heading, found, expected, minimum
    }

    /// The `kind` tag written for each case.
    package var kind: String {
        switch self {
        case .missingHeading: "missing_heading"
        case .duplicateHeading: "duplicate_heading"
        case .outOfOrder: "out_of_order"
        case .pacingTotal: "pacing_total"
        case .noPacing: "no_pacing"
        case .warmUpMinutes: "warm_up_minutes"
        case .tooFewCFUQuestions: "too_few_cfu_questions"
        case .exitTicketPrompts: "exit_ticket_prompts"
        case .codeFence: "code_fence"
        }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        func heading() throws -> String { try container.decode(String.self, forKey: .heading) }
        func number(_ key: CodingKeys) throws -> Int { try container.decode(Int.self, forKey: key) }
        switch kind {
        case "missing_heading": self = .missingHeading(try heading())
        case "duplicate_heading": self = .duplicateHeading(try heading())
        case "out_of_order": self = .outOfOrder(try heading())
        case "pacing_total": self = .pacingTotal(found: try number(.found), expected: try number(.expected))
        case "no_pacing": self = .noPacing
        case "warm_up_minutes": self = .warmUpMinutes(found: try number(.found), expected: try number(.expected))
        case "too_few_cfu_questions":
            self = .tooFewCFUQuestions(found: try number(.found), minimum: try number(.minimum))
        case "exit_ticket_prompts": self = .exitTicketPrompts(found: try number(.found), expected: try number(.expected))
        case "code_fence": self = .codeFence
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "unknown plan problem \(kind)")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .missingHeading(let heading), .duplicateHeading(let heading), .outOfOrder(let heading):
            try container.encode(heading, forKey: .heading)
        case .pacingTotal(let found, let expected), .warmUpMinutes(let found, let expected),
            .exitTicketPrompts(let found, let expected):
            try container.encode(found, forKey: .found)
            try container.encode(expected, forKey: .expected)
        case .tooFewCFUQuestions(let found, let minimum):
            try container.encode(found, forKey: .found)
            try container.encode(minimum, forKey: .minimum)
        case .noPacing, .codeFence:
            break
        }
    }
}

/// What the plan check found, comparable so a repaired plan can be kept only when it checks better.
///
/// Two checks side by side: the structure (``problems``: headings, pacing, counts) and the content
/// (``notes``: what the sections say). ``passed`` is the structure alone, so "✓ structure · 2 content notes"
/// is a plan of the right shape whose content is weak.
package struct PlanCheckReport: Codable, Equatable, Sendable {
    /// Problems in a fixed order: missing, duplicate, out of order, pacing, warm-up, CFU, exit ticket, fence.
    package var problems: [PlanProblem]
    /// The minutes the timed in-class sections add up to, or nil when none names a time.
    package var pacedMinutes: Int?
    /// The lesson length the plan was checked against.
    package var lessonMinutes: Int
    /// The content check's notes; nil when the content was not checked (a record from before it existed).
    package var notes: [ContentNote]?

    package init(problems: [PlanProblem], pacedMinutes: Int?, lessonMinutes: Int, notes: [ContentNote]? = nil) {
        self.problems = problems
        self.pacedMinutes = pacedMinutes
        self.lessonMinutes = lessonMinutes
        self.notes = notes
    }

    /// True when the plan's structure has no problems (the content notes are counted apart).
    package var passed: Bool { problems.isEmpty }

    /// True when the content was checked and has no problem; advice may remain (``advice``).
    package var contentPassed: Bool { notes.map { !$0.contains { !$0.isAdvice } } ?? false }

    /// The content notes that make the plan unusable as written.
    package var contentProblems: [ContentNote] { (notes ?? []).filter { !$0.isAdvice } }

    /// The content notes that are advice: shown, and sent to the model only when the teacher asks (`/repair`).
    package var advice: [ContentNote] { (notes ?? []).filter(\.isAdvice) }

    /// Whether the plan has a structure or content problem, which starts the one automatic repair; advice never does.
    package var needsRepair: Bool { !problems.isEmpty || !contentProblems.isEmpty }

    /// Whether there is anything at all a `/repair` the teacher types would send: a problem or advice.
    package var hasFindings: Bool { needsRepair || !advice.isEmpty }

    /// The check in a few words, structure and content apart, then advice: `✓ structure · ✓ content`,
    /// `✓ structure · ✓ content · 1 suggestion`, `✗ structure: 1 problem · ✗ content: 2 problems`; a report
    /// from before the content check says only the structure.
    package var summary: String {
        let structure =
            problems.isEmpty
            ? "✓ structure" : "✗ structure: \(problems.count == 1 ? "1 problem" : "\(problems.count) problems")"
        guard notes != nil else { return structure }
        let found = contentProblems.count
        let content = found == 0 ? "✓ content" : "✗ content: \(found == 1 ? "1 problem" : "\(found) problems")"
        let suggestions = advice.count
        guard suggestions > 0 else { return "\(structure) · \(content)" }
        return "\(structure) · \(content) · \(suggestions == 1 ? "1 suggestion" : "\(suggestions) suggestions")"
    }

    /// The summed severity of the problems and notes; 0 for a plan with neither, lower is better.
    package var score: Int { problems.map(\.severity).reduce(0, +) + (notes ?? []).map(\.severity).reduce(0, +) }

    /// Whether this report is strictly better: a lower score, or the same score with fewer problems and notes.
    package func isBetter(than other: PlanCheckReport) -> Bool {
        if score != other.score { return score < other.score }
        return problems.count + (notes ?? []).count < other.problems.count + (other.notes ?? []).count
    }

    private enum CodingKeys: String, CodingKey {
        case problems, pacedMinutes, lessonMinutes, passed, notes
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // A problem kind from a newer lessonplan is dropped rather than making the whole record unreadable.
        problems = try container.decode([LenientProblem].self, forKey: .problems).compactMap(\.problem)
        pacedMinutes = try container.decodeIfPresent(Int.self, forKey: .pacedMinutes)
        lessonMinutes = try container.decode(Int.self, forKey: .lessonMinutes)
        notes = try container.decodeIfPresent([LenientNote].self, forKey: .notes)?.compactMap(\.note)
    }

    /// Writes `passed` too, so a reader of the JSON need not know the rule.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(problems, forKey: .problems)
        try container.encodeIfPresent(pacedMinutes, forKey: .pacedMinutes)
        try container.encode(lessonMinutes, forKey: .lessonMinutes)
        try container.encode(passed, forKey: .passed)
        try container.encodeIfPresent(notes, forKey: .notes)
    }
}

/// One content note read from disk, or nil when its kind is unknown to this build.
private struct LenientNote: Decodable {
    let note: ContentNote?

    init(from decoder: any Decoder) throws {
        note = try? ContentNote(from: decoder)
    }
}

/// One problem read from disk, or nil when its kind is unknown to this build.
private struct LenientProblem: Decodable {
    let problem: PlanProblem?

    init(from decoder: any Decoder) throws {
        problem = try? PlanProblem(from: decoder)
    }
}

/// Checks a plan against the format the prompt asked for, so drafts can be repaired before a teacher sees them.
///
/// A check the framework has no use for is switched off by passing nil for its heading (a 5E plan has no
/// exit ticket). Item counting (``countItems(_:)``) decides how many CFU questions and exit-ticket prompts
/// a section has; pacing follows ``PlanDocument`` and ``Pacing``.
package struct PlanChecker: Sendable {
    /// Longest answer, in UTF-8 bytes, that is read as a plan and checked: a lesson plan is 5–20 KB,
    /// and reading one costs a few microseconds a byte, so a runaway answer would stall the footer.
    package static let largestCheckedPlan = 64 * 1024

    /// The expected headings, in order.
    package var headings: [String]
    /// The section whose questions are counted, or nil to skip that check.
    package var cfuHeading: String?
    /// The section whose prompts are counted, or nil to skip that check.
    package var exitTicketHeading: String?
    /// The section whose minutes are checked against ``warmUpMinutes``, or nil to skip that check.
    package var warmUpHeading: String?
    /// The minutes the warm-up must take, or nil to skip that check.
    package var warmUpMinutes: Int?
    /// The fewest CFU questions a plan may have.
    package var minimumCFUQuestions: Int
    /// The exact number of exit-ticket prompts.
    package var exitTicketPrompts: Int
    /// Sections whose time is spent outside the lesson and so is left out of pacing.
    package var unpacedHeadings: Set<String>

    package init(
        headings: [String],
        cfuHeading: String? = "Check for Understanding",
        exitTicketHeading: String? = "Exit Ticket",
        warmUpHeading: String? = "Warm-Up (5 min)",
        warmUpMinutes: Int? = 5,
        minimumCFUQuestions: Int = 3,
        exitTicketPrompts: Int = 3,
        unpacedHeadings: Set<String> = ["Homework / Extension (optional)"]
    ) {
        self.headings = headings
        self.cfuHeading = cfuHeading
        self.exitTicketHeading = exitTicketHeading
        self.warmUpHeading = warmUpHeading
        self.warmUpMinutes = warmUpMinutes
        self.minimumCFUQuestions = minimumCFUQuestions
        self.exitTicketPrompts = exitTicketPrompts
        self.unpacedHeadings = unpacedHeadings
    }

    /// Every problem the plan has, with the pacing total, checked against a lesson of `lessonMinutes`.
    package func check(_ plan: String, lessonMinutes: Int) -> PlanCheckReport {
        check(PlanDocument(parsing: plan, headings: headings), lessonMinutes: lessonMinutes)
    }

    /// Every problem of a plan already read, so the check sees the sections every other reader sees.
    package func check(_ structure: PlanDocument, lessonMinutes: Int) -> PlanCheckReport {
        var problems: [PlanProblem] = []

        var occurrences: [String: Int] = [:]
        for section in structure.sections {
            occurrences[section.heading, default: 0] += 1
        }
        for heading in headings where occurrences[heading] == nil {
            problems.append(.missingHeading(heading))
        }
        for heading in headings where occurrences[heading, default: 0] > 1 {
            problems.append(.duplicateHeading(heading))
        }
        for heading in Self.outOfOrder(structure.sections.map(\.heading), expected: headings) {
            problems.append(.outOfOrder(heading))
        }

        let paced = Pacing.total(of: structure.sections, excluding: unpacedHeadings)
        if let paced {
            if paced != lessonMinutes { problems.append(.pacingTotal(found: paced, expected: lessonMinutes)) }
        } else {
            problems.append(.noPacing)
        }

        if let warmUpHeading, let warmUpMinutes, let found = structure.section(warmUpHeading)?.minutes,
            found != warmUpMinutes
        {
            problems.append(.warmUpMinutes(found: found, expected: warmUpMinutes))
        }
        if let cfuHeading, let section = structure.section(cfuHeading) {
            let found = Self.countItems(section.body)
            if found < minimumCFUQuestions {
                problems.append(.tooFewCFUQuestions(found: found, minimum: minimumCFUQuestions))
            }
        }
        if let exitTicketHeading, let section = structure.section(exitTicketHeading) {
            let found = Self.countItems(section.body)
            if found != exitTicketPrompts {
                problems.append(.exitTicketPrompts(found: found, expected: exitTicketPrompts))
            }
        }
        if structure.hasCodeFence {
            problems.append(.codeFence)
        }
        return PlanCheckReport(problems: problems, pacedMinutes: paced, lessonMinutes: lessonMinutes)
    }

    /// Counts the questions or prompts in a section body, so list styles and bare questions both count.
    ///
    /// Each line is one of: a numbered, lettered or bulleted item (``ListMarker``), a line ending in `?`,
    /// or other text. The count uses the first kind present
    /// in that order, counting only the least-indented lines of that kind, so sub-bullets and lettered
    /// answer choices under numbered questions are not counted. Lines that introduce a list (ending in `:`,
    /// such as "- During guided practice, ask:") and lines the teacher alone reads (``TeacherLabel``)
    /// never count.
    package static func countItems(_ body: [String]) -> Int {
        items(body).count
    }

    /// The items ``countItems(_:)`` counts, as written after their markers, so the content check reads the same ones.
    /// - Parameter counting: false to include, when no list or question is present, the plain lines (so a
    ///   section of statements is read as the items it was meant to be).
    static func items(_ body: [String], counting: Bool = true) -> [String] {
        var kinds: [[(indent: Int, text: String)]] = [[], [], [], [], []]
        // Unlisted lines, questions and statements together in their order, for the content check.
        var unlisted: [(indent: Int, text: String)] = []
        for (index, line) in body.enumerated() {
            // A line ending in ":" introduces a list only when one follows ("Fix the errors in this code:" over
            // code lines is a task).
            let next = body[(index + 1)...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            let followedByList = next.map { ListMarker.parse(ListMarker.plain($0)) != nil } ?? true
            guard let item = ListItem(line, followedByList: followedByList) else { continue }
            kinds[item.kind].append((item.indent, item.text))
            if item.kind >= 3 { unlisted.append((item.indent, item.text)) }
        }
        var candidates = Array(kinds.prefix(3))
        candidates.append(counting ? kinds[3] : unlisted)
        guard let chosen = candidates.first(where: { !$0.isEmpty }), let indent = chosen.map(\.indent).min() else {
            return []
        }
        return chosen.filter { $0.indent == indent }.map(\.text)
    }

    /// The headings, by first appearance, whose removal leaves the longest in-order run.
    ///
    /// Ties keep the earlier-expected heading, so of two swapped neighbours the later-expected one is blamed.
    static func outOfOrder(_ written: [String], expected: [String]) -> [String] {
        var seen: Set<String> = []
        var order: [(heading: String, rank: Int)] = []
        for heading in written where !seen.contains(heading) {
            seen.insert(heading)
            if let rank = expected.firstIndex(of: heading) { order.append((heading, rank)) }
        }
        guard !order.isEmpty else { return [] }
        // longestFrom[i]: the longest increasing run of ranks that starts at position i.
        var longestFrom = Array(repeating: 1, count: order.count)
        for i in order.indices.reversed() {
            for j in (i + 1)..<order.count where order[j].rank > order[i].rank {
                longestFrom[i] = max(longestFrom[i], longestFrom[j] + 1)
            }
        }
        // Keep, step by step, the smallest rank that can still complete a longest run.
        var kept: Set<Int> = []
        var remaining = longestFrom.max() ?? 0
        var lastRank = -1
        var from = 0
        while remaining > 0 {
            let candidates = (from..<order.count).filter {
                order[$0].rank > lastRank && longestFrom[$0] == remaining
            }
            guard let pick = candidates.min(by: { order[$0].rank < order[$1].rank }) else { break }
            kept.insert(pick)
            lastRank = order[pick].rank
            from = pick + 1
            remaining -= 1
        }
        return order.indices.filter { !kept.contains($0) }.map { order[$0].heading }
    }
}

/// One line of a section body classified for counting: kind 0 numbered, 1 lettered, 2 bulleted, 3 question, 4 other text.
private struct ListItem {
    let kind: Int
    let indent: Int
    let text: String

    /// - Parameter followedByList: whether a list comes next; a numbered or lettered item ending in ":" counts when
    ///   none does (the code or text under it is part of the item).
    init?(_ line: String, followedByList: Bool = true) {
        let trimmed = ListMarker.plain(line)
        guard !trimmed.isEmpty else { return nil }
        indent = ListMarker.indent(of: line)
        let found = ListMarker.parse(trimmed)
        let rest = found?.rest ?? Substring(trimmed)
        let plain = rest.trimmingCharacters(in: CharacterSet(charactersIn: "*_").union(.whitespaces))
        if TeacherLabel.isLabelled(plain) { return nil }
        let numbered = found.map { $0.kind == .numbered || $0.kind == .lettered } ?? false
        if plain.hasSuffix(":"), followedByList || !numbered { return nil }
        if let found {
            kind = found.kind.rawValue
        } else if plain.trimmingCharacters(in: CharacterSet(charactersIn: "\"'”’)]*_ ")).hasSuffix("?") {
            kind = 3
        } else if plain.contains(where: \.isLetter) {
            kind = 4  // other text: never counted, but read by the content check when nothing else is there
        } else {
            return nil
        }
        text = plain
    }
}
