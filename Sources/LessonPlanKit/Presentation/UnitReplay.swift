import Foundation
import LessonPlanCore
import LessonPlanStore

extension SessionReview {
    /// `replay` walks a unit lesson by lesson: a heading whenever the turns move on to another lesson, naming it as
    /// the overview does.
    static func lessonHeading(_ started: TurnStarted, state: SessionState, shown: inout Int?) -> StyledText? {
        guard let unit = state.unit, let lesson = started.lesson, lesson != shown else { return nil }
        shown = lesson
        let title = unit.outline.indices.contains(lesson - 1) ? unit.outline[lesson - 1].title : ""
        return StyledText(
            "━━ Lesson \(lesson) of \(unit.lessons): \(TerminalSanitizer.cleanLine(title, limit: 120))\n", style: .bold)
    }

    /// What `resume` adds for a unit: that it is one, the current lesson, and the lessons still missing.
    static func unitNote(_ state: SessionState) -> String {
        guard let unit = state.unit else { return "" }
        var note = " in a unit of \(unit.lessons) lessons"
        if let lesson = state.currentLesson { note += ", lesson \(lesson) current" }
        let missing = state.lessonsMissing.count
        if missing > 0 { note += "; \(missing) not written yet, /continue writes them" }
        return note
    }
}
