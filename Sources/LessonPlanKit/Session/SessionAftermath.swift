import Foundation
import LessonPlanCore
import LessonPlanStore

/// Where a session stood before a command: enough to say afterwards what the command changed, in one look.
package struct SessionMark: Sendable {
    /// Changes kept in memory because they could not be written (a full disk).
    var unsaved: Int
    /// In a unit: the lessons already possibly out of step with an objective that changed.
    var outOfStep: Set<Int>
    var version: Int?
}

/// What a command left to say once it ran, whichever command it was: lessons of a unit newly out of step, whether
/// the quizzes and rubrics of an earlier version still go with the new one, and what became of unsaved changes.
package struct SessionAftermath: Sendable {
    /// Sentences for the teacher, in order, each with whether it is only a remark (dim) rather than a warning.
    package var notes: [(sentence: String, quiet: Bool)] = []
    /// Why changes this command made could not be written; nil when they were.
    package var saveProblem: String?
    /// How many changes from before the command were written during it (none when the command was `/save`, which
    /// says so itself).
    package var writtenNow = 0
}

extension SessionEngine {
    /// The session as it stands, to compare with after a command (``aftermath(since:reportsSaving:)``).
    package var mark: SessionMark {
        SessionMark(unsaved: unsavedRecords, outOfStep: lessonsOutOfStep, version: state.currentVersion)
    }

    /// What changed since `mark`, as sentences a host can print.
    /// - Parameter reportsSaving: the command said itself what it wrote (`/save`), so that is not said again.
    package func aftermath(since mark: SessionMark, reportsSaving: Bool) -> SessionAftermath {
        var aftermath = SessionAftermath()
        let added = lessonsOutOfStep.subtracting(mark.outOfStep).sorted()
        if !added.isEmpty, let lesson = state.currentLesson {
            let named = added.count == 1 ? "lesson \(added[0]) was" : "lessons \(added.map(String.init).joined(separator: ", ")) were"
            aftermath.notes.append(
                (
                    "Lesson \(lesson)'s objective changed, and \(named) written before it: possibly out of step; /unit shows them, /unit lesson K writes one again.",
                    false
                ))
        }
        // After the plan moved on to a new version: whether its quizzes and rubric written for an earlier one still fit
        // it (checked by code), and what to type when one does not. Nothing is dropped without a word.
        if let now = state.currentVersion, now != mark.version {
            aftermath.notes += state.followingSentences(plan: now).map { ($0.sentence, $0.carried) }
        }
        let unsaved = unsavedRecords
        if unsaved > mark.unsaved, let problem = saveProblem {
            aftermath.saveProblem = problem.message
        } else if mark.unsaved > 0, unsaved == 0, !reportsSaving {
            aftermath.writtenNow = mark.unsaved
        }
        return aftermath
    }
}
