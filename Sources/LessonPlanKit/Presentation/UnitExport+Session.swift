import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

// What a unit's export picks out of the session: the overview and each written lesson, read as a single lesson's
// export reads the current plan. The rendering is the documents' (Documents/UnitExport.swift).
extension UnitExport {
    /// The unit's document in `format`.
    /// - Throws: ``ExportError`` outside a unit, with no lesson written or for json/pptx; ``DocumentError`` from pandoc.
    package static func render(
        _ state: SessionState, format: ExportFormat, prompts: PromptLibrary, showModel: Bool = false, pandoc: Pandoc?,
        timeZone: TimeZone = .current
    ) async throws -> Data {
        guard let unit = state.unit else {
            throw ExportError("This session is a single lesson, not a unit; export it with /export md (or html, docx, odt).")
        }
        let lessons = try lessonDocuments(state, unit: unit, prompts: prompts, showModel: showModel)
        return try await render(unit, lessons: lessons, format: format, prompts: prompts, pandoc: pandoc, timeZone: timeZone)
    }

    /// The unit as a Common Cartridge: the overview and each written lesson as a page (``cartridge(_:lessons:identifier:tools:timeZone:)``).
    /// - Throws: ``ExportError`` outside a unit, with no lesson written or when `zip` is missing or fails;
    ///   ``PromptError`` when a lesson's framework cannot be read.
    package static func cartridge(
        _ state: SessionState, prompts: PromptLibrary, showModel: Bool = false, tools: LMSTools, timeZone: TimeZone = .current
    ) async throws -> Data {
        guard let unit = state.unit else {
            throw ExportError("This session is a single lesson, not a unit; export its quiz and plan with /export quiz imscc.")
        }
        let lessons = try lessonDocuments(state, unit: unit, prompts: prompts, showModel: showModel)
        return try await cartridge(
            unit, lessons: lessons, identifier: cartridgeIdentifier(sessionID: state.header.id), tools: tools, timeZone: timeZone)
    }

    /// What a unit's export tells the teacher before it is written: each lesson's quiz or rubric that did not pass
    /// its check and is left out, said as a single lesson's export says it, with the lesson's number.
    package static func leftOutNotes(_ state: SessionState) -> [String] {
        guard let unit = state.unit else { return [] }
        var notes: [String] = []
        for number in 1...max(1, unit.outline.count) {
            var lessonState = state
            lessonState.apply(.lesson(LessonRecord(at: state.header.created, number: number)))
            guard lessonState.currentLesson == number, let current = lessonState.current else { continue }
            notes += SessionReview.failedLeftOut(lessonState, number: current.number, asked: .none).map { "Lesson \(number): \($0)" }
        }
        return notes
    }

    /// Each written lesson's current version, read as a single lesson's export reads the current plan: the state
    /// with that lesson made current, as `/lesson N` makes it.
    static func lessonDocuments(_ state: SessionState, unit: UnitRecord, prompts: PromptLibrary, showModel: Bool) throws
        -> [Lesson]
    {
        var lessons: [Lesson] = []
        for (index, outline) in unit.outline.enumerated() {
            let number = index + 1
            var lessonState = state
            lessonState.apply(.lesson(LessonRecord(at: state.header.created, number: number)))
            guard lessonState.currentLesson == number, let current = lessonState.current else { continue }
            let framework = try prompts.framework(current.framework)
            guard let (export, plan) = SessionReview.document(lessonState, framework: framework, showModel: showModel) else {
                continue
            }
            lessons.append(Lesson(number: number, title: outline.title, objective: outline.objective, export: export, plan: plan))
        }
        return lessons
    }
}
