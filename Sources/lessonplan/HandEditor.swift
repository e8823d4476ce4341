import Foundation
import LessonPlanKit

/// `/edit`: the current plan in `$VISUAL` / `$EDITOR` (else `vi`); saving makes a new version.
struct HandEditor {
    let console: Console
    let environment: [String: String]

    func edit(engine: SessionEngine, line: String) async {
        guard let current = await engine.state.current else {
            console.error("There is no plan to edit yet; type /generate to write one.")
            return
        }
        // Editors expect a final newline; a file saved unchanged must not count as an edit.
        let original = current.text.hasSuffix("\n") ? current.text : current.text + "\n"
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let folder = FileManager.default.temporaryDirectory.appending(path: "lessonplan-edit-\(UUID().uuidString)")
        let file = folder.appending(path: "plan-v\(current.number).txt")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Data(original.utf8).write(to: file)
        } catch {
            console.error("Cannot write a temporary file for the editor; check that \(folder.deletingLastPathComponent().path) is writable.")
            return
        }
        // Through the shell, so EDITOR may carry arguments ("code --wait", "nano -w").
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor) \"$1\"", "lessonplan-edit", file.path]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            console.error("Cannot start the editor “\(editor)”; set VISUAL or EDITOR to one that is installed.")
            return
        }
        guard process.terminationStatus == 0 else {
            console.error("The editor exited with status \(process.terminationStatus); nothing changed, still v\(current.number).")
            return
        }
        guard let data = try? Data(contentsOf: file) else {
            console.error("The edited file is gone; nothing changed, still v\(current.number).")
            return
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text != original else {
            console.line("No changes; still v\(current.number).")
            return
        }
        do {
            if let version = try await engine.handEdit(text, command: line.trimmingCharacters(in: .whitespaces)) {
                console.line("Saved your edit as v\(version.number) (from v\(current.number)); /diff shows what changed.")
                if let report = version.check, let framework = try? await engine.framework(of: version) {
                    let problems = report.problems.map { "   ✗ \(framework.describe($0))" }
                    console.line(console.dim(report.passed ? "── ✓ plan check" : "── ✗ plan check:\n" + problems.joined(separator: "\n")))
                }
            } else {
                console.line("No changes; still v\(current.number).")
            }
        } catch {
            console.error(error.message)
        }
    }
}
