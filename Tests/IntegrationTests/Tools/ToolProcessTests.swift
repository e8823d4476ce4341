import Foundation
import LessonPlanCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A tool the library runs is held to a deadline and a cap on its output, and nothing it started outlives it.
@Suite struct ToolProcessTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Whether `pid` still runs (a zombie has ended).
    static func alive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[close...].dropFirst(2).first != "Z"
    }

    /// Past its deadline the tool is killed, and so is the child it started in the background.
    @Test func pastItsDeadlineTheToolAndItsChildrenAreKilled() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appending(path: "child.pid")
        let script = "sleep 300 & echo $! > \(pidFile.path); wait"
        let result = try await ToolProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], scratch: folder, deadline: 1)
        #expect(result.timedOut && !result.outputTooLarge)
        let child = try #require(pid_t(try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // SIGKILL is delivered before kill() returns; the orphan is reaped by init soon after.
        var gone = false
        for _ in 0..<100 where !gone {
            gone = !Self.alive(child)
            if !gone { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(gone, "the background sleep \(child) outlived the tool")
    }

    /// A tool that writes without end is killed once its output passes the cap, and no more than the cap is read.
    @Test func outputPastTheCapStopsTheTool() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ToolProcess.run(URL(fileURLWithPath: "/usr/bin/yes"), ["tide"], scratch: folder, largestOutput: 1_000_000)
        #expect(result.outputTooLarge && !result.timedOut)
        #expect(result.output.count <= 1_000_000)
    }

    /// A tool that ends in time is untouched: its status and output as it gave them.
    @Test func aToolThatEndsInTimeIsUntouched() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ToolProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "echo tides; exit 3"], scratch: folder, deadline: 30)
        #expect(result.status == 3 && !result.timedOut && !result.outputTooLarge)
        #expect(String(decoding: result.output, as: UTF8.self) == "tides\n")
    }
}
