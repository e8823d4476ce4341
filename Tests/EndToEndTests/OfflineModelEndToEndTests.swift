import Foundation
import TestSupport
import Testing

/// Where the 1.5B offline model is installed: `LESSONPLAN_OFFLINE_HOME` (a data directory), else this user's own
/// data directory, when its `local-model/install.stamp` names the 1.5b. CI installs only the tiny model
/// (`scripts/local-e2e`), so there this suite skips, saying so.
enum InstalledOfflineModel {
    static let home: URL? = {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let given = environment["LESSONPLAN_OFFLINE_HOME"], !given.isEmpty { candidates.append(given) }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { candidates.append(data + "/lessonplan") }
        candidates.append(NSHomeDirectory() + "/.local/share/lessonplan")
        return candidates.map { URL(fileURLWithPath: $0) }.first { home in
            let stamp = home.appending(path: "local-model/install.stamp")
            return (try? String(contentsOf: stamp, encoding: .utf8))?.hasPrefix("model: 1.5b") == true
        }
    }()

    static let skipReason =
        "The 1.5B offline model is not installed here (scripts/local-model install --model 1.5b, or set LESSONPLAN_OFFLINE_HOME to a data directory that has it); CI runs the tiny model in scripts/local-e2e."
}

@Suite(.serialized, .enabled(if: InstalledOfflineModel.home != nil, Comment(rawValue: InstalledOfflineModel.skipReason)))
struct OfflineModelEndToEndTests {
    /// The measure, once: the installed 1.5B writes a 45-minute plan that passes its structure check at
    /// once, with one objective line, asked for by name.
    @Test func theInstalledOneAndAHalfBWritesAPlanThatPassesItsStructure() async throws {
        let installed = try #require(InstalledOfflineModel.home)
        let port = "18023"
        var environment = ProcessInfo.processInfo.environment
        environment["LESSONPLAN_HOME"] = installed.path
        environment["LESSONPLAN_LOCAL_PORT"] = port
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "scripts/local-model")
        let start = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"), [script.path, "start"], environment: environment)
        #expect(start.status == 0, "\(start.output)")
        defer {
            let stop = Process()
            stop.executableURL = URL(fileURLWithPath: "/bin/bash")
            stop.arguments = [script.path, "stop"]
            stop.environment = environment
            try? stop.run()
        }
        // The tool runs in a home of its own, with the stamp copied so it asks for the model by name; the
        // teacher's own sessions are never touched.
        var binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        binary.environment["LESSONPLAN_LOCAL_PORT"] = port
        binary.environment["OPENAI_API_KEY"] = nil
        let folder = binary.home.appending(path: "local-model")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: installed.appending(path: "local-model/install.stamp"), to: folder.appending(path: "install.stamp"))
        let result = try await binary.run(
            ["generate", "--local", "--grade", "4", "--topic", "Fractions on a number line", "--minutes", "45", "--no-repair"],
            timeout: .seconds(300))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("✓ structure"), "\(result.stderr)")
        let started = try binary.transcriptLines().first { $0["type"] as? String == "turn_started" }
        #expect(started?["model"] as? String == "Qwen2.5-Coder-1.5B-Instruct", "\(String(describing: started))")
        let objective =
            result.stdout.components(separatedBy: "\nMaterials").first?
            .components(separatedBy: "Learning Objective").last ?? ""
        #expect(objective.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.count == 1, "\(objective)")
    }
}
