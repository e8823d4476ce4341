import Foundation
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
    func export(_ state: SessionState, format: ExportFormat, materials: Bool, to path: String?, force: Bool, showModel: Bool) -> Bool {
        let data: Data
        do {
            if format.document != nil, path == nil {
                throw UsageError(message: "A .\(format.rawValue) is not for a terminal; write it to a file with -o FILE.\(format.rawValue).")
            }
            data = try ExportCommand.document(
                state, format: format, materials: materials, prompts: prompts, showModel: showModel, environment: environment)
        } catch {
            console.error(error.message)
            return false
        }
        for note in SessionReview.exportNotes(state, materials: materials) { console.note(note) }
        let what = materials ? "the handouts" : "v\(state.currentVersion ?? 0)"
        guard let path else {
            console.document(data, format: format)
            return !console.outputFailed
        }
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
        // 0600 whatever the umask: a plan may describe real students.
        do {
            try PrivateFiles.write(data, to: url, replace: force)
        } catch {
            if case .exists = error {
                console.error(error.message)
            } else {
                console.error("Cannot write \(url.path): check that the folder exists, is writable and has space.")
            }
            return false
        }
        console.note("Wrote \(format.label) of \(what) to \(url.path).")
        return true
    }
}
