import Foundation

/// A plan whose structure the tool writes itself: the model supplies only what goes under each heading,
/// as JSON under a schema, and the tool adds the headings, the minutes and the numbering.
///
/// A small model (the offline SmolLM2-135M) cannot keep ten headings, a pacing that adds up and exact
/// counts in order while it writes; a schema-constrained answer cannot leave a part out, and the rest is
/// arithmetic. The result is the same plain text a free-text answer is, so the check, pacing, exports
/// and transcript read it the same way.
package struct StructuredPlan: Equatable, Sendable {
    /// What a part holds, which decides how many items the schema asks for and how they are listed.
    package enum Role: Equatable, Sendable {
        /// Steps, notes or items, as a bulleted list.
        case content
        /// The questions that check understanding: numbered, at least `minimum`.
        case questions(minimum: Int)
        /// The exit ticket's prompts: numbered, exactly `count`.
        case prompts(count: Int)
    }

    /// How much an answer may hold, which decides the schema's limits and the counts the prompt states.
    package enum Size: Equatable, Sendable {
        /// Counts only: OpenAI's strict mode takes a subset of JSON Schema (no string lengths, no patterns).
        case counted
        /// For llama-server, which enforces string lengths: fewer and shorter items, so the longest answer the
        /// schema allows stays near a thousand tokens (the slowest offline plan on a busy machine within a
        /// minute, docs/offline.md).
        case bounded
        /// For the offline 1.5B model, which writes whole sentences longer than ``StructuredPlan/longestItem``
        /// (bounded, it cut them in two): items up to ``StructuredPlan/longestSentence`` characters, and one
        /// objective, where unbounded it wrote three.
        case sentences

        /// The most items a content part may have.
        package var mostItems: Int { self == .counted ? StructuredPlan.mostItems : StructuredPlan.mostBoundedItems }

        /// The longest item the schema allows; nil when it states no length.
        package var longestItem: Int? {
            switch self {
            case .counted: nil
            case .bounded: StructuredPlan.longestItem
            case .sentences: StructuredPlan.longestSentence
            }
        }

        /// The size for a local model (llama-server, which enforces string lengths) of this name.
        package static func local(model: String) -> Size {
            model == StructuredPlan.sentenceModel ? .sentences : .bounded
        }
    }

    /// One heading of the plan and what the tool decided about it.
    package struct Part: Equatable, Sendable {
        /// The framework's heading.
        package var heading: String
        /// The JSON member the model fills, e.g. `warm_up` for `Warm-Up (5 min)`.
        package var key: String
        package var role: Role
        /// Where the part sits on the lesson's clock; nil for a part that takes no class time.
        package var start: Int?
        package var end: Int?
        /// The most items a content part may have (``Size/mostItems``).
        var mostContentItems = StructuredPlan.mostItems
        /// Whether the part is the objective, asked for as one item in a ``Size/sentences`` answer.
        var isSingleObjective = false

        /// The fewest items the schema allows.
        package var minItems: Int {
            switch role {
            case .content: 1
            case .questions(let minimum): minimum
            case .prompts(let count): count
            }
        }

        /// The most items the schema allows: enough for a real section, few enough that a model
        /// looping on one part cannot fill the output limit (a free-text plan once listed 26 materials).
        package var maxItems: Int {
            switch role {
            case .content: isSingleObjective ? 1 : mostContentItems
            case .questions(let minimum): minimum + 1
            case .prompts(let count): count
            }
        }

        /// The heading line as the plan writes it: the framework's heading with the part's times.
        package var title: String {
            guard let start, let end else { return heading }
            return "\(StructuredPlan.withoutStatedTime(heading)) (\(start)–\(end) min)"
        }
    }

    /// The most items a content part may have.
    package static let mostItems = 4
    /// The most items a content part may have in a ``Size/bounded`` answer.
    package static let mostBoundedItems = 3
    /// The shortest item a ``Size/bounded`` schema allows, so an empty or one-word part cannot come back.
    package static let shortestItem = 12
    /// The longest item a ``Size/bounded`` schema allows: one sentence. With ``mostBoundedItems`` the longest
    /// answer is 31 items of the default framework, about 1,000 tokens of the offline model's.
    package static let longestItem = 100
    /// The longest item a ``Size/sentences`` schema allows: one full sentence of a plan, as the 1.5B writes them.
    package static let longestSentence = 300
    /// The offline model that gets ``Size/sentences`` (`scripts/local-model install --model 1.5b`).
    package static let sentenceModel = "Qwen2.5-Coder-1.5B-Instruct"
    /// The prompt templates a structured turn renders besides the command's own.
    package static let templates = ["structured", "structured-instructions"]
    /// The name the schema is sent under.
    package static let schemaName = "lesson_plan"

    package let framework: Framework
    package let inputs: LessonInputs
    /// What the schema lets the answer hold.
    package let size: Size
    /// The framework's headings in order, each with its role and times.
    package let parts: [Part]
    /// Parts the tool writes itself, by member key: their one item is not asked for (a unit's lesson takes its
    /// objective from the unit's overview, so the plan states the objective the overview gave it).
    package private(set) var given: [String: String] = [:]

    /// Lays out a plan of `framework` for `inputs`: which parts are timed and for how long.
    ///
    /// The warm-up takes the framework's warm-up minutes; the other timed parts share the rest, the
    /// check for understanding and the exit ticket half as much as a teaching part, in whole minutes
    /// that add up exactly to the lesson (largest remainders first, ties to the earlier part).
    package init(framework: Framework, inputs: LessonInputs, size: Size = .counted) {
        self.framework = framework
        self.inputs = inputs
        self.size = size
        let untimed = Set(framework.untimedHeadings + framework.unpacedHeadings)
        var parts = framework.headings.map { heading in
            Part(
                heading: heading, key: Self.key(for: heading), role: Self.role(of: heading, in: framework),
                mostContentItems: size.mostItems,
                isSingleObjective: size == .sentences && heading == framework.objectiveHeading)
        }
        Self.disambiguateKeys(&parts)
        let timed = parts.indices.filter { !untimed.contains(parts[$0].heading) }
        let minutes = Self.share(
            inputs.minutes, among: timed.map { parts[$0] }, warmUp: framework.warmUpHeading,
            warmUpMinutes: framework.warmUpMinutes)
        var clock = 0
        for (index, length) in zip(timed, minutes) where length > 0 {
            parts[index].start = clock
            parts[index].end = clock + length
            clock += length
        }
        self.parts = parts
    }

    /// The same layout with the objective part written by the tool as `objective`; unchanged when the framework
    /// names no objective heading or `objective` is empty.
    package func giving(objective: String) -> StructuredPlan {
        let objective = Self.clean(objective)
        guard !objective.isEmpty, let heading = framework.objectiveHeading,
            let part = parts.first(where: { $0.heading == heading })
        else { return self }
        var plan = self
        plan.given[part.key] = objective
        return plan
    }

    /// The parts the model fills in: every part the tool does not write itself.
    var asked: [Part] { parts.filter { given[$0.key] == nil } }

    // MARK: Layout

    private static func role(of heading: String, in framework: Framework) -> Role {
        if heading == framework.exitTicketHeading { return .prompts(count: framework.exitTicketPrompts) }
        if heading == framework.cfuHeading { return .questions(minimum: framework.cfuQuestions) }
        return .content
    }

    /// Whole minutes for each timed part, summing to `total`: the warm-up first, then by weight.
    static func share(_ total: Int, among parts: [Part], warmUp: String?, warmUpMinutes: Int?) -> [Int] {
        var minutes = Array(repeating: 0, count: parts.count)
        var left = total
        var shared = Array(parts.indices)
        if let warmUp, let fixed = warmUpMinutes, let index = parts.firstIndex(where: { $0.heading == warmUp }) {
            // With no other timed part the warm-up is the lesson.
            minutes[index] = parts.count == 1 ? total : min(fixed, total)
            left -= minutes[index]
            shared.removeAll { $0 == index }
        }
        guard !shared.isEmpty, left > 0 else { return minutes }
        let weights = shared.map { parts[$0].role == .content ? 2 : 1 }
        let weightSum = weights.reduce(0, +)
        var remainders: [(index: Int, remainder: Int)] = []
        var given = 0
        for (position, index) in shared.enumerated() {
            let exact = left * weights[position]
            minutes[index] = exact / weightSum
            given += minutes[index]
            remainders.append((index, exact % weightSum))
        }
        // Largest remainder first; the stable sort keeps ties in plan order.
        let order = remainders.enumerated().sorted {
            $0.element.remainder != $1.element.remainder ? $0.element.remainder > $1.element.remainder : $0.offset < $1.offset
        }
        for step in order.prefix(left - given) { minutes[step.element.index] += 1 }
        return minutes
    }

    /// The JSON member name for a heading: its words in lower case joined by `_`, a stated time and
    /// `(optional)` left out, e.g. `homework_extension` for `Homework / Extension (optional)`.
    static func key(for heading: String) -> String {
        var text = withoutStatedTime(heading)
        if let open = text.range(of: "(", options: .backwards), text.hasSuffix(")") {
            text = String(text[..<open.lowerBound])
        }
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber) || !$0.isASCII }
        let key = words.joined(separator: "_")
        return key.isEmpty ? "part" : key
    }

    private static func disambiguateKeys(_ parts: inout [Part]) {
        var seen: [String: Int] = [:]
        for index in parts.indices {
            let count = seen[parts[index].key, default: 0] + 1
            seen[parts[index].key] = count
            if count > 1 { parts[index].key += "_\(count)" }
        }
    }

    /// A heading without a trailing stated time such as ` (5 min)`.
    package static func withoutStatedTime(_ heading: String) -> String {
        heading.replacing(/\s*[(\[][^()\[\]]*\d+\s*(?:min|minutes?)[^()\[\]]*[)\]]\s*$/.ignoresCase(), with: "")
    }

    // MARK: The schema and the prompt

    /// The JSON schema of the answer, its members in the plan's order (a model writes them in that order), with
    /// the limits of its ``size``.
    package func schema() -> String {
        // No pattern forces a question's "?": with one, the tiny model ended cut-off sentences with "?", which the
        // content check would count as questions when they are not.
        var item = [("type", JSONText.string("string"))]
        if let longest = size.longestItem {
            item += [("minLength", .number(Self.shortestItem)), ("maxLength", .number(longest))]
        }
        let properties = asked.map { part in
            (
                part.key,
                JSONText.object([
                    ("type", .string("array")),
                    ("items", .object(item)),
                    ("minItems", .number(part.minItems)),
                    ("maxItems", .number(part.maxItems)),
                ])
            )
        }
        return JSONText.object([
            ("type", .string("object")),
            ("properties", .object(properties)),
            ("required", .array(asked.map { .string($0.key) })),
            ("additionalProperties", .bool(false)),
        ]).serialized
    }

    /// One line per part for the prompt's `{{sections}}`: the member, its heading, its minutes and how many items.
    package var promptSections: String {
        asked.map { part in
            var line = "- \"\(part.key)\": \(Self.withoutStatedTime(part.heading))"
            if let start = part.start, let end = part.end { line += " (\(end - start) min)" }
            switch part.role {
            case .content: line += part.maxItems == 1 ? ", exactly 1 item" : ", 1 to \(part.maxItems) items"
            case .questions(let minimum): line += ", \(minimum) or \(minimum + 1) questions that check understanding"
            case .prompts(let count): line += ", exactly \(count) prompts students answer on their own"
            }
            return line
        }.joined(separator: "\n")
    }

    // MARK: Rendering

    /// The plan as plain text from the model's JSON answer.
    /// - Throws: ``StructuredPlanError`` when the answer is not the JSON object the schema asks for.
    package func render(json answer: String) throws(StructuredPlanError) -> String {
        var text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        // A server that ignores the schema may still wrap its JSON in a code fence or a sentence.
        if let open = text.firstIndex(of: "{"), let close = text.lastIndex(of: "}"), open < close {
            text = String(text[open...close])
        }
        guard !text.isEmpty else { throw .empty }
        guard let value = JSONValue.parse(text), let members = value.objectValue else { throw .notJSON }
        var content: [String: [String]] = [:]
        for part in parts {
            if let item = given[part.key] {
                content[part.key] = [item]
                continue
            }
            guard let member = members[part.key] else { throw .missingPart(heading: Self.withoutStatedTime(part.heading)) }
            let raw: [JSONValue] = member.arrayValue ?? [member]
            var items = raw.compactMap { $0.stringValue }.map { Self.clean(Self.uncut($0, bound: size.longestItem)) }
                .filter { !$0.isEmpty }
            if part.role != .content {
                // A labelled line (`Answer: …`) is the teacher's, not a question: it would not be counted.
                items.removeAll { TeacherLabel.isLabelled($0) }
            }
            if items.count < part.minItems {
                throw .tooFew(heading: Self.withoutStatedTime(part.heading), found: items.count, needed: part.minItems)
            }
            content[part.key] = Array(items.prefix(part.maxItems))
        }
        return render(content: content)
    }

    /// The plan as plain text from content already read: each part's heading with its times, then its items.
    /// Items are cleaned as ``clean(_:)`` cleans them; a part without items gets none.
    package func render(content: [String: [String]]) -> String {
        var blocks: [String] = []
        for part in parts {
            let items = (content[part.key] ?? []).map(Self.clean).filter { !$0.isEmpty }.prefix(part.maxItems)
            var lines = [part.title]
            for (number, item) in items.enumerated() {
                if part.role == .content {
                    lines.append("- \(item)")
                } else {
                    // A numbered line that is only a heading's name (`1. Learning Objective.`) would be read
                    // as that heading; in quotation marks it stays the item it is.
                    let line = "\(number + 1). \(item)"
                    let isHeading = PlanDocument.matchHeading(line, in: framework.headings) != nil
                    lines.append(isHeading ? "\(number + 1). “\(item)”" : line)
                }
            }
            blocks.append(lines.joined(separator: "\n"))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    /// An item that ran into the schema's length bound, cut back to its last whole sentence: llama-server ends the
    /// string at the bound wherever the model was, and the model closes it mid-sentence ("…What were some of.").
    /// An item under the bound, or one with no earlier sentence end, is returned as it came.
    static func uncut(_ item: String, bound: Int?) -> String {
        let text = item.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bound, item.unicodeScalars.count >= bound - 1 else { return item }
        let ends = text.ranges(of: /[.!?][”"’)]?(?=\s)/).filter { range in
            let before = text[..<range.lowerBound].split(separator: " ").last.map { $0.lowercased() } ?? ""
            return !abbreviations.contains(before + text[range].prefix(1)) && before.count > 1
        }
        guard let last = ends.last, text.distance(from: text.startIndex, to: last.upperBound) >= shortestItem else { return item }
        return String(text[..<last.upperBound])
    }

    /// Words ending in a full stop that end no sentence, so ``uncut(_:bound:)`` does not stop at them.
    private static let abbreviations: Set<String> = ["e.g.", "i.e.", "etc.", "mr.", "mrs.", "ms.", "dr.", "vs.", "st.", "p.", "pp.", "no."]

    /// One item as one line the plan reader takes as an item: whitespace runs and line breaks become
    /// one space, a list marker the model added and code fences go, and it ends as a sentence (a line
    /// ending in `:` would introduce a list and not count; a short unended one might read as a heading).
    static func clean(_ item: String) -> String {
        var text = item.replacing("```", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for _ in 0..<3 {
            guard let marker = ListMarker.parse(text) else { break }
            text = String(marker.rest).trimmingCharacters(in: .whitespaces)
        }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: ":;,–—-").union(.whitespaces))
        guard let last = text.last else { return "" }
        if !".?!\"”’)".contains(last) { text += "." }
        return withoutStatedTimes(text)
    }

    /// An item with its times in words: the tool owns the pacing, and a plan reader takes `10 min` or
    /// `0–5 min` in a section's text as that section's time (`spend ten minutes` reads the same to a teacher).
    static func withoutStatedTimes(_ item: String) -> String {
        let times = MinuteText.times(in: item)
        guard !times.ranges.isEmpty || !times.durations.isEmpty else { return item }
        var text = item.replacing(/(\d):(\d\d)(\s*[-–—]\s*)(\d):(\d\d)/) { match in
            "\(match.1).\(match.2)\(match.3)\(match.4).\(match.5)"
        }
        text = text.replacing(/(?i)(\d{1,3})(\s*(?:[-–—]|to)\s*)(\d{1,3})(?=\s*min)/) { match in
            "\(spelled(match.1))\(match.2)\(spelled(match.3))"
        }
        text = text.replacing(/(?i)(min(?:ute)?s?\s*)(\d{1,3})(\s*(?:[-–—]|to)\s*)(\d{1,3})/) { match in
            "\(match.1)\(spelled(match.2))\(match.3)\(spelled(match.4))"
        }
        return text.replacing(/(?i)(\d{1,3})(?=\s*-?\s*min)/) { match in spelled(match.1) }
    }

    /// A whole number below 1000 in English words, e.g. `forty-five`.
    static func spelled<S: StringProtocol>(_ digits: S) -> String {
        guard let number = Int(digits), number < 1000 else { return String(digits) }
        let ones = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
        ]
        let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        func below100(_ n: Int) -> String {
            n < 20 ? ones[n] : tens[n / 10] + (n % 10 == 0 ? "" : "-" + ones[n % 10])
        }
        if number < 100 { return below100(number) }
        let rest = number % 100
        return ones[number / 100] + " hundred" + (rest == 0 ? "" : " " + below100(rest))
    }
}

/// Why a structured answer could not be made into a plan, in one sentence that says what to do.
package enum StructuredPlanError: Error, Equatable, Sendable, LocalizedError {
    case empty
    case notJSON
    case missingPart(heading: String)
    case tooFew(heading: String, found: Int, needed: Int)
    /// The answer stopped at the output limit before its JSON was complete.
    case cutShort

    package var errorDescription: String? {
        let next = "/retry asks again (or start with --free-text for a plan the model structures itself)."
        return switch self {
        case .empty:
            "The model sent an empty answer instead of the plan's parts; \(next)"
        case .notJSON:
            "The model's answer is not the JSON object of the plan's parts that was asked for; \(next)"
        case .missingPart(let heading):
            "The model's answer has nothing for “\(heading)”; \(next)"
        case .tooFew(let heading, let found, let needed):
            "The model's answer has \(found) usable item\(found == 1 ? "" : "s") for “\(heading)”, not the \(needed) needed; \(next)"
        case .cutShort:
            "The answer stopped at the output limit before all the plan's parts were written; raise --max-output-tokens and /retry."
        }
    }
}
