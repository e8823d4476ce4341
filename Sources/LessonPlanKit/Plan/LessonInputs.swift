import Foundation

/// What a teacher asks for: the same rules apply to flags, interactive answers and slash commands.
public struct LessonInputs: Codable, Equatable, Sendable {
    public static let minutesRange = 10...180
    public static let topicLimit = 200
    public static let optionalFieldLimit = 1000

    public var grade: GradeBand
    public var topic: String
    public var minutes: Int
    public var standards: String
    public var constraints: String

    /// Builds validated inputs; text fields are trimmed first.
    /// - Throws: ``InputError`` for an empty or overlong topic or an overlong optional field.
    public init(grade: GradeBand, topic: String, minutes: Int, standards: String = "", constraints: String = "")
        throws(InputError)
    {
        guard Self.minutesRange.contains(minutes) else { throw .minutes(String(minutes)) }
        self.grade = grade
        self.topic = try Self.validTopic(topic)
        self.minutes = minutes
        self.standards = try Self.validOptional(standards, field: "standards")
        self.constraints = try Self.validOptional(constraints, field: "constraints")
    }

    /// Inputs exactly as a transcript recorded them, without the checks new input gets, because
    /// a transcript is read back as written (as the synthesized `Decodable` does).
    init(recorded grade: GradeBand, topic: String, minutes: Int, standards: String, constraints: String) {
        self.grade = grade
        self.topic = topic
        self.minutes = minutes
        self.standards = standards
        self.constraints = constraints
    }

    /// Reads a lesson length: a whole number of minutes in ``minutesRange``, never clamped.
    public static func parseMinutes(_ text: String) throws(InputError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // A unit may follow, as people write it: `30 minutes`, `30 min`, `30min`, `30m`.
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard !digits.isEmpty, ["", "m", "min", "mins", "minute", "minutes"].contains(unit),
            let minutes = Int(digits), minutesRange.contains(minutes)
        else { throw .minutes(trimmed) }
        return minutes
    }

    /// A trimmed topic of 1 to ``topicLimit`` characters.
    public static func validTopic(_ text: String) throws(InputError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .topicMissing }
        guard trimmed.count <= topicLimit else { throw .topicTooLong(trimmed.count) }
        return trimmed
    }

    /// A trimmed optional field of at most ``optionalFieldLimit`` characters.
    public static func validOptional(_ text: String, field: String) throws(InputError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= optionalFieldLimit else { throw .fieldTooLong(field: field, count: trimmed.count) }
        return trimmed
    }
}
