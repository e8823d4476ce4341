import Foundation

/// A teacher's input that cannot be used, with one sentence saying what to type instead.
package enum InputError: Error, Equatable, Sendable, LocalizedError {
    case gradeBand(String)
    case minutes(String)
    case topicMissing
    case topicTooLong(Int, bytes: Int)
    case fieldTooLong(field: String, count: Int)

    package var errorDescription: String? {
        switch self {
        case .gradeBand(let text):
            "“\(text)” is not a grade band; use \(GradeBand.acceptedForms)."
        case .minutes(let text):
            "“\(text)” is not a lesson length; give whole minutes from \(LessonInputs.minutesRange.lowerBound) to \(LessonInputs.minutesRange.upperBound)."
        case .topicMissing:
            "The topic is required; give one of 1 to \(LessonInputs.topicLimit) characters, e.g. --topic \"Photosynthesis\"."
        case .topicTooLong(let count, let bytes) where count <= LessonInputs.topicLimit:
            "The topic is \(bytes) bytes long (a character can carry many accents); shorten it to at most \(LessonInputs.topicByteLimit) bytes."
        case .topicTooLong(let count, _):
            "The topic is \(count) characters long; shorten it to at most \(LessonInputs.topicLimit)."
        case .fieldTooLong(let field, let count):
            "The \(field) are \(count) characters long; shorten them to at most \(LessonInputs.optionalFieldLimit)."
        }
    }
}

extension InputError {
    /// The one-sentence message, for wrapping into other errors.
    package var message: String { errorDescription ?? "Invalid input." }
}
