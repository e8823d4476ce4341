import Foundation
import LessonPlanKit

/// Writes an export to a file (never over an existing one unless forced) or to stdout.
struct Exporter {
    let console: Console
    /// The prompt templates, whose frameworks say how to read a plan's sections and pacing.
    let prompts: PromptLibrary

    /// The current plan, read with its own framework's headings.
    /// - Returns: whether the export was written.
    @discardableResult
    func export(_ state: SessionState, format: ExportFormat, to path: String?, force: Bool, showModel: Bool = false)
        -> Bool
    {
        let data: Data
        do {
            let framework = try prompts.framework(state.currentFramework)
            data = try SessionReview.export(state, format: format, framework: framework, showModel: showModel)
        } catch {
            console.error(error.message)
            return false
        }
        return write(data, format: format, to: path, force: force, what: "v\(state.currentVersion ?? 0)")
    }

    /// The latest student handouts, with a warning when they were made from an older plan version.
    /// - Returns: whether the export was written.
    @discardableResult
    func exportMaterials(_ state: SessionState, format: ExportFormat, to path: String?, force: Bool) -> Bool {
        let data: Data
        do {
            let made = state.materials.last?.planVersion.flatMap(state.version)
            let framework = try prompts.framework(made?.framework ?? state.currentFramework)
            data = try SessionReview.exportMaterials(state, format: format, framework: framework)
            if let stale = SessionReview.staleHandouts(state) {
                console.note(
                    "These handouts were made from v\(stale.madeFrom), but the plan is now v\(stale.current); the page says so. Type /materials to make new ones.")
            }
        } catch {
            console.error(error.message)
            return false
        }
        return write(data, format: format, to: path, force: force, what: "the handouts")
    }

    private func write(_ data: Data, format: ExportFormat, to path: String?, force: Bool, what: String) -> Bool {
        guard let path else {
            var data = data
            if data.last != UInt8(ascii: "\n") { data.append(UInt8(ascii: "\n")) }
            // JSON and HTML piped to a program stay byte-exact; on a terminal everything is sanitised.
            if format != .md, !console.stdoutIsTTY {
                console.raw(data)
            } else {
                console.out(String(decoding: data, as: UTF8.self))
            }
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
        console.note("Wrote \(format.rawValue.uppercased()) of \(what) to \(url.path).")
        return true
    }
}
