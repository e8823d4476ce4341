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

    /// The current plan, or the latest handouts, as a docx, odt or pptx made by pandoc; only ever to a file.
    /// - Returns: whether the document was written.
    @discardableResult
    func exportDocument(
        _ state: SessionState, format: DocumentFormat, to path: String?, force: Bool, materials: Bool,
        showModel: Bool = false, environment: [String: String]
    ) -> Bool {
        guard let path else {
            console.error("A .\(format.rawValue) is not for a terminal; write it to a file with -o FILE.\(format.rawValue).")
            return false
        }
        let data: Data
        do {
            let made = materials ? state.materials.last?.planVersion.flatMap(state.version) : nil
            let framework = try prompts.framework(made?.framework ?? state.currentFramework)
            data = try DocumentExport.render(
                state, format: format, framework: framework, materials: materials, showModel: showModel, prompts: prompts,
                pandoc: Pandoc.find(environment: environment))
            if materials, let stale = SessionReview.staleHandouts(state) {
                console.note(
                    "These handouts were made from v\(stale.madeFrom), but the plan is now v\(stale.current); the page says so. Type /materials to make new ones.")
            }
        } catch {
            console.error(error.message)
            return false
        }
        let what = materials ? "the handouts" : "v\(state.currentVersion ?? 0)"
        return write(data, label: format.name, text: false, to: path, force: force, what: what)
    }

    private func write(_ data: Data, format: ExportFormat, to path: String?, force: Bool, what: String) -> Bool {
        write(data, label: format.rawValue.uppercased(), text: format == .md, to: path, force: force, what: what)
    }

    /// Writes to `path`, or to stdout when there is none; `text` exports are sanitised on a terminal.
    private func write(_ data: Data, label: String, text: Bool, to path: String?, force: Bool, what: String) -> Bool {
        guard let path else {
            var data = data
            if data.last != UInt8(ascii: "\n") { data.append(UInt8(ascii: "\n")) }
            // JSON and HTML piped to a program stay byte-exact; on a terminal everything is sanitised.
            if !text, !console.stdoutIsTTY {
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
        console.note("Wrote \(label) of \(what) to \(url.path).")
        return true
    }
}
