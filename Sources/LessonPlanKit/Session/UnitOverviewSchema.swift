import Foundation

/// A unit's overview asked for as JSON under a schema, for a model that cannot keep to a text layout (the offline
/// one, whose plans are structured for the same reason): the answer's fields are written back into the overview's
/// layout (``UnitPlan/text``), which the reader and its check then read as they read any overview.
public struct UnitOverviewSchema: Equatable, Sendable {
    public static let schemaName = "unit_overview"
    /// How many lessons the unit has: the schema asks for exactly that many.
    public let lessons: Int

    public init(lessons: Int) { self.lessons = lessons }

    /// The JSON schema of the answer: a goal, two to four essential questions, and exactly `lessons` lessons.
    /// - Parameter lengthLimits: string lengths, which llama-server enforces and OpenAI's strict mode does not take.
    public func schema(lengthLimits: Bool) -> String {
        func text(_ shortest: Int, _ longest: Int) -> JSONText {
            var members = [("type", JSONText.string("string"))]
            if lengthLimits { members += [("minLength", .number(shortest)), ("maxLength", .number(longest))] }
            return .object(members)
        }
        let lesson = JSONText.object([
            ("type", .string("object")),
            ("properties", .object([("title", text(3, 80)), ("objective", text(20, 200)), ("builds_on", text(3, 160))])),
            ("required", .array([.string("title"), .string("objective"), .string("builds_on")])),
            ("additionalProperties", .bool(false)),
        ])
        return JSONText.object([
            ("type", .string("object")),
            ("properties", .object([
                ("goal", text(20, 240)),
                ("essential_questions", .object([
                    ("type", .string("array")), ("items", text(10, 160)), ("minItems", .number(2)), ("maxItems", .number(4)),
                ])),
                ("lessons", .object([
                    ("type", .string("array")), ("items", lesson), ("minItems", .number(lessons)), ("maxItems", .number(lessons)),
                ])),
            ])),
            ("required", .array([.string("goal"), .string("essential_questions"), .string("lessons")])),
            ("additionalProperties", .bool(false)),
        ]).serialized
    }

    /// The overview in its text layout from the model's JSON answer; what the JSON lacks is left for the check to name.
    /// - Throws: ``StructuredPlanError`` when the answer is not a JSON object.
    public func render(json answer: String) throws(StructuredPlanError) -> String {
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
