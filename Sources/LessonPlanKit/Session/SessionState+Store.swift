import Foundation
import LessonPlanCore
import LessonPlanStore

// Where the engine meets the store: the store reads and writes transcript lines and knows nothing of the state
// they fold into, so what needs both lives here, on the engine's side of the arrow.

extension TranscriptReader {
    /// Folds a transcript's records into the session state.
    package static func state(of transcript: LoadedTranscript) -> SessionState? {
        guard case .header(let header) = transcript.records.first else { return nil }
        var state = SessionState(header: header)
        for record in transcript.records.dropFirst() { state.apply(record) }
        return state
    }
}

extension SessionSummary {
    /// What `lessonplan sessions` shows for `state`, written for a transcript of `transcriptBytes`.
    package init(state: SessionState, transcriptBytes: Int, damaged: Bool = false) {
        self.init(
            id: state.header.id, name: state.name, created: state.header.created, grade: state.currentInputs.grade,
            minutes: state.currentInputs.minutes, topic: state.currentInputs.topic, versions: state.versions.count,
            lastCommand: state.lastCommand, transcriptBytes: transcriptBytes, damaged: damaged, lessons: state.unit?.lessons)
    }
}

extension SessionStore {
    /// The sessions folder in `directory`, whose listing rebuilds a stale summary by folding the transcript into
    /// the session state, as `resume` reads it.
    package init(directory: DataDirectory) {
        self.init(directory: directory) { loaded in
            TranscriptReader.state(of: loaded).map {
                SessionSummary(state: $0, transcriptBytes: loaded.size, damaged: loaded.isDamaged)
            }
        }
    }
}

extension TurnStarted {
    /// What a quiz or rubric turn asked for; nil for other turns.
    package var assessment: AssessmentRequest? {
        switch kind {
        case .quiz: .quiz(kind: quizKind ?? .exit, items: quizItems ?? Quiz.defaultItems)
        case .rubric: .rubric(levels: rubricLevels ?? Rubric.defaultLevels)
        default: nil
        }
    }
}
