import LessonPlanKit
import LessonPlanStore
import StoreTestSupport

extension TemporaryHome {
    /// The sessions folder in this home, whose listing folds a transcript into the session state as `resume` does.
    package var store: SessionStore { SessionStore(directory: directory) }
}
