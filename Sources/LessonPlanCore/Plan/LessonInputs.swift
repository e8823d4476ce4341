import Foundation

/// What a teacher asks for: the same rules apply to flags, interactive answers and slash commands.
package struct LessonInputs: Codable, Equatable, Sendable {
    package static let minutesRange = 10...180
    package static let topicLimit = 200
    /// The topic's limit in UTF-8 bytes: 200 characters of any script fit, one character of 100 KB does not.
    package static let topicByteLimit = 1000
    package static let optionalFieldLimit = 1000

    package var grade: GradeBand
    package var topic: String
    package var minutes: Int
    package var standards: String
    package var constraints: String
    /// The one grade the teacher gave (`--grade 4`; 0 is kindergarten), or nil when a band was given.
    /// Kept beside the band so the prompt can say "grade 4 (band 3–5)"; absent in older transcripts.
    package var givenGrade: Int?

    /// Builds validated inputs; text fields are trimmed first.
    /// - Throws: ``InputError`` for an empty or overlong topic or an overlong optional field.
    package init(
        grade: GradeBand, topic: String, minutes: Int, standards: String = "", constraints: String = "",
        givenGrade: Int? = nil
    ) throws(InputError) {
        guard Self.minutesRange.contains(minutes) else { throw .minutes(String(minutes)) }
        self.grade = grade
        self.givenGrade = givenGrade.flatMap { grade.grades.contains($0) ? $0 : nil }
        self.topic = try Self.validTopic(topic)
        self.minutes = minutes
        self.standards = try Self.validOptional(standards, field: "standards")
        self.constraints = try Self.validOptional(constraints, field: "constraints")
    }

    /// Inputs exactly as a transcript recorded them, without the checks new input gets, because
    /// a transcript is read back as written (as the synthesized `Decodable` does).
    package init(
        recorded grade: GradeBand, topic: String, minutes: Int, standards: String, constraints: String,
        givenGrade: Int? = nil
    ) {
        self.grade = grade
        self.givenGrade = givenGrade
        self.topic = topic
        self.minutes = minutes
        self.standards = standards
        self.constraints = constraints
    }

    /// Who the lesson is for, as the prompt says it: `grade 4 (band 3–5)` when one grade was given
    /// (and the band still holds it, e.g. not after `/regrade 6–8`), else `grades 3–5`.
    package var gradeText: String {
        if let given = givenGrade, grade.grades.contains(given) {
            return "grade \(GradeBand.gradeName(given)) (band \(grade.rawValue))"
        }
        return "grades \(grade.rawValue)"
    }

    /// Sets the band, keeping the grade a teacher gave only when it is `grade`, as `/regrade 4` gives it.
    package mutating func setGrade(_ band: GradeBand, given: Int?) {
        grade = band
        givenGrade = given.flatMap { band.grades.contains($0) ? $0 : nil }
    }

    /// Reads a lesson length: a whole number of minutes in ``minutesRange``, never clamped.
    package static func parseMinutes(_ text: String) throws(InputError) -> Int {
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
    package static func validTopic(_ text: String) throws(InputError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .topicMissing }
        // Bytes too: one grapheme can carry any number of combining marks (a 100 KB "character").
        guard trimmed.count <= topicLimit, trimmed.utf8.count <= topicByteLimit else {
            throw .topicTooLong(trimmed.count, bytes: trimmed.utf8.count)
        }
        return trimmed
    }

    /// A trimmed optional field of at most ``optionalFieldLimit`` characters.
    package static func validOptional(_ text: String, field: String) throws(InputError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= optionalFieldLimit else { throw .fieldTooLong(field: field, count: trimmed.count) }
        return trimmed
    }
}
