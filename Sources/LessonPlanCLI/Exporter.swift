import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import Terminal

/// `lessonplan export`: writes an export to a file (never over an existing one unless forced) or to stdout.
struct Exporter {
    let console: Console
    /// The prompt templates, whose frameworks say how to read a plan's sections and pacing.
    let prompts: PromptLibrary
    /// Where pandoc is looked for.
    let environment: [String: String]

    /// The current plan or its latest handouts, read with their own framework's headings.
    /// - Returns: whether the export was written.
    func export(
        _ state: SessionState, format: ExportFormat, materials: Bool, to path: String?, force: Bool, showModel: Bool,
        asked: ExportAsked = .none
    ) async -> Bool {
        let data: Data
        // Without -o, the same rule as /export: a page or document goes to <topic>-v<N>.<format>.
        let path = path ?? ExportCommand.defaultFile(state, format: format, materials: materials, toTerminal: console.stdoutIsTTY)
        do {
            try SessionReview.checkAsked(state, materials: materials, asked: asked)
            data = try await ExportCommand.document(
                state, format: format, materials: materials, prompts: prompts, showModel: showModel, asked: asked,
                environment: environment)
        } catch {
            console.error(error.message)
            return false
        }
        for note in SessionReview.exportNotes(state, materials: materials, asked: asked) { console.note(note) }
        guard let path else {
            console.document(data, format: format)
            return !console.outputFailed
        }
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        switch ExportCommand.write(data, format: format, materials: materials, state: state, to: url, replace: force) {
        case .wrote(let sentence):
            console.note(sentence)
            return true
        case .exists(let sentence), .failed(let sentence):
            console.error(sentence)
            return false
        }
    }

    /// The quiz made from the current plan in a platform's format, to FILE or, without one, to the default name in
    /// the current folder (a zip or spreadsheet is not for a terminal).
    /// - Returns: whether the file was written.
    func exportQuiz(_ state: SessionState, format: LMSFormat, choice: QuizChoice?, to path: String?, force: Bool) async -> Bool {
        let result: LMSExport.Result
        do {
            result = try await LMSExport.render(
                state, format: format, choice: choice, prompts: prompts, tools: LMSTools(environment: environment))
        } catch {
            console.error(error.message)
            return false
        }
        for note in result.notes { console.note(note) }
        let url = URL(fileURLWithPath: ((path ?? ExportCommand.defaultQuizFile(state, format: format)) as NSString).expandingTildeInPath)
        switch ExportCommand.writeQuiz(result, format: format, to: url, replace: force) {
        case .wrote(let sentence):
            console.note(sentence)
            return true
        case .exists(let sentence), .failed(let sentence):
            console.error(sentence)
            return false
        }
    }
}
