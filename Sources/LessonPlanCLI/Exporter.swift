import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import Terminal

/// `lessonplan export`: any row of the export table, written to a file (never over an existing one unless forced)
/// or printed, through the one write path `/export` uses.
struct Exporter: ExportOutput {
    let console: Console
    /// The prompt templates, whose frameworks say how to read a plan's sections and pacing.
    let prompts: PromptLibrary
    /// Where pandoc and zip are looked for.
    let environment: [String: String]

    /// Exports `entry` of `state` to `path`, or without one by the rule of every export (``ExportEntry/defaultFile(_:toTerminal:)``).
    /// - Returns: whether the export was written or printed.
    func export(
        _ entry: ExportEntry, of state: SessionState, to path: String?, force: Bool, showModel: Bool = false, asked: ExportAsked = .none,
        quiz: QuizChoice? = nil
    ) async -> Bool {
        let job = ExportJob(state: state, prompts: prompts, showModel: showModel, asked: asked, quiz: quiz, environment: environment)
        return await ExportWriter.run(entry, job, path: path, force: force, to: self)
    }

    func note(_ sentence: String) { console.note(sentence) }
    func error(_ sentence: String) { console.error(sentence) }

    func print(_ data: Data, format: ExportFormat) -> Bool {
        console.document(data, format: format)
        return !console.outputFailed
    }

    var toTerminal: Bool { console.stdoutIsTTY }
    var workingDirectory: URL { URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true) }

    /// `lessonplan export` asks nothing: `--force` replaces a file.
    func replaces(_ url: URL) -> Bool? { nil }
}
