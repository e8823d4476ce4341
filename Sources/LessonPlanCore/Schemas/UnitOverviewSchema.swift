import Foundation

/// A unit's overview asked for as JSON under a schema, for a model that cannot keep to a text layout (the offline
/// one, whose plans are structured for the same reason): the answer's fields are written back into the overview's
/// layout (``UnitPlan/text``), which the reader and its check then read as they read any overview.
package struct UnitOverviewSchema: Equatable, Sendable {
    package static let schemaName = "unit_overview"
    /// How many lessons the unit has: the schema asks for exactly that many.
    package let lessons: Int
    /// The verb each lesson's objective starts with, in order (``steps(lessons:progression:)``); none when empty.
    package let steps: [String]

    package init(lessons: Int, steps: [String] = []) {
        self.lessons = lessons
        self.steps = steps.count == lessons ? steps : []
    }

    /// `lessons` verbs from `progression` (the list in `prompts/unit-progression.txt`, least demanding first),
    /// spread evenly from its first to its last so the lessons climb it; empty when the list is shorter than the
    /// unit (steps would repeat) or holds anything but plain words.
    package static func steps(lessons: Int, progression: [String]) -> [String] {
        guard lessons >= 1, progression.count >= lessons,
            progression.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isLetter } })
        else { return [] }
        guard lessons > 1 else { return [progression[0]] }
        return (0..<lessons).map { progression[($0 * (progression.count - 1) + (lessons - 1) / 2) / (lessons - 1)] }
    }

    /// The steps as the prompt states them (`{{progression}}`): each lesson's objective and its first words; empty
    /// without steps.
    package var promptLine: String {
        guard !steps.isEmpty else { return "" }
        let each = steps.enumerated().map { "lesson \($0.offset + 1)'s starts \"Students will \($0.element)\"" }
        return "The lessons climb from one to the next: " + each.joined(separator: ", ") + "."
    }

    /// The JSON schema of the answer: a goal, two to four essential questions, and exactly `lessons` lessons.
    /// - Parameter lengthLimits: string lengths, and each lesson's objective starting with its step, which
    ///   llama-server enforces (`pattern`, `prefixItems`) and OpenAI's strict mode does not take.
    package func schema(lengthLimits: Bool) -> String {
        func text(_ shortest: Int, _ longest: Int) -> JSONText {
            var members = [("type", JSONText.string("string"))]
            if lengthLimits { members += [("minLength", .number(shortest)), ("maxLength", .number(longest))] }
            return .object(members)
        }
        func lesson(objective: JSONText) -> JSONText {
            .object([
                ("type", .string("object")),
                ("properties", .object([("title", text(3, 80)), ("objective", objective), ("builds_on", text(3, 160))])),
                ("required", .array([.string("title"), .string("objective"), .string("builds_on")])),
                ("additionalProperties", .bool(false)),
            ])
        }
        var list: [(String, JSONText)] = [("type", .string("array"))]
        if lengthLimits, !steps.isEmpty {
            // One schema per lesson, in order: lesson k's objective starts with step k, so no two are alike. The
            // rest is one line with no quote or backslash, which would end or escape the JSON string early.
            list.append(
                (
                    "prefixItems",
                    .array(
                        steps.map { verb in
                            lesson(
                                objective: .object([
                                    ("type", .string("string")), ("pattern", .string("^Students will \(verb) [^\"\\\\\\n]{10,180}$")),
                                ]))
                        })
                ))
        } else {
            list.append(("items", lesson(objective: text(20, 200))))
        }
        list += [("minItems", .number(lessons)), ("maxItems", .number(lessons))]
        return JSONText.object([
            ("type", .string("object")),
            (
                "properties",
                .object([
                    ("goal", text(20, 240)),
                    (
                        "essential_questions",
                        .object([
                            ("type", .string("array")), ("items", text(10, 160)), ("minItems", .number(2)), ("maxItems", .number(4)),
                        ])
                    ),
                    ("lessons", .object(list)),
                ])
            ),
            ("required", .array([.string("goal"), .string("essential_questions"), .string("lessons")])),
            ("additionalProperties", .bool(false)),
        ]).serialized
    }

    /// The overview in its text layout from the model's JSON answer; what the JSON lacks is left for the check to name.
    /// - Throws: ``StructuredPlanError`` when the answer is not a JSON object.
    package func render(json answer: String) throws(StructuredPlanError) -> String {
        var text = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        if let open = text.firstIndex(of: "{"), let close = text.lastIndex(of: "}"), open < close {
            text = String(text[open...close])
        }
        guard !text.isEmpty else { throw .empty }
        guard let value = JSONValue.parse(text), let members = value.objectValue else { throw .notJSON }
        func line(_ value: JSONValue?) -> String {
            (value?.stringValue ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
                .trimmingCharacters(in: .whitespaces)
        }
        let questions = (members["essential_questions"]?.arrayValue ?? []).map(line).filter { !$0.isEmpty }
        let outline = (members["lessons"]?.arrayValue ?? []).compactMap { item -> UnitLessonOutline? in
            guard let lesson = item.objectValue else { return nil }
            return UnitLessonOutline(
                title: line(lesson["title"]), objective: line(lesson["objective"]), buildsOn: line(lesson["builds_on"]))
        }
        return UnitPlan(goal: line(members["goal"]), questions: questions, lessons: outline).text
    }
}
