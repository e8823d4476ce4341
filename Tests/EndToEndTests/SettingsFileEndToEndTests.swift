import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The settings file as a teacher of a school with a proxy would write it: the endpoint and a
/// token in `~/.config/lessonplan/config`, no key anywhere.
@Suite(.serialized) struct SettingsFileEndToEndTests {
    static let token = "tok-teacher.FILETOKEN-4d5e6f"

    /// Writes `text` as the binary's `$HOME/.config/lessonplan/config` with `mode`.
    func writeConfig(_ text: String, for binary: LessonplanBinary, mode: mode_t = 0o600) throws -> URL {
        let folder = binary.home.appending(path: ".config/lessonplan")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appending(path: "config")
        try Data(text.utf8).write(to: file)
        #expect(chmod(file.path, mode) == 0)
        return file
    }

    @Test func aTokenFromTheFileReachesTheProxyAndIsWrittenNowhere() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        defer { binary.removeHome() }
        let endpoint = server.rootURL.appending(path: "lessonplan").absoluteString
        let file = try writeConfig("# school proxy\nendpoint = \(endpoint)\ntoken = \(Self.token)\n", for: binary)

        let result = try await binary.run(["generate", "--grade", "6-8", "--topic", "Tides", "--minutes", "45"])
        #expect(result.status == 0, "\(result.stderr)")
        let doctor = try await binary.run(["doctor"])
        #expect(doctor.status == 0, "\(doctor.stderr)")
        #expect(doctor.stdout.contains("token         …5e6f in Authorization: Bearer  (config file \(file.path))"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("endpoint      \(endpoint)  (config file \(file.path))"))
        #expect(doctor.stdout.contains("API key       not set (optional with --endpoint)"))

        let requests = try await server.requests()
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.path == "/lessonplan")
            #expect(request.header("authorization") == "Bearer \(Self.token)")
        }
        for output in [result.stdout, result.stderr, doctor.stdout, doctor.stderr] {
            #expect(!output.contains(Self.token) && !output.contains("FILETOKEN"))
        }
        let written = binary.writtenFiles().filter { !$0.path.hasSuffix("/config") }
        #expect(written.contains { $0.path.hasSuffix(".jsonl") })
        for (path, contents) in written { #expect(!contents.contains("FILETOKEN"), "\(path)") }
    }

    @Test func aFileOthersCanReadIsRefusedBeforeAnythingIsSent() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL, apiKey: nil)
        defer { binary.removeHome() }
        let file = try writeConfig("token = \(Self.token)\n", for: binary, mode: 0o644)
        let result = try await binary.run(["generate", "--topic", "Tides"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("run chmod 600 \(file.path)"), "\(result.stderr)")
        #expect(!result.stderr.contains("FILETOKEN"))
        #expect(try await server.requests().isEmpty)
    }

    @Test func tokenHeaderRefusesTheNamesHeaderRefuses() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        defer { binary.removeHome() }
        let endpoint = server.rootURL.appending(path: "lessonplan").absoluteString
        for name in ["Content-Length", "host", "Transfer-Encoding", "Connection"] {
            let file = try writeConfig("endpoint = \(endpoint)\ntoken = \(Self.token)\ntoken_header = \(name)\n", for: binary)
            let result = try await binary.run(["generate", "--topic", "Tides"])
            #expect(result.status == 2, "\(name): \(result.stderr)")
            #expect(
                result.stderr
                    == "The settings file \(file.path), line 3, names \(name) for token_header, which is reserved (lessonplan sets it itself); name another header, e.g. token_header = X-Teacher-Token.\n",
                "\(result.stderr)")
        }
        #expect(try await server.requests().isEmpty)
    }

    @Test func withATokenHeaderThePersonalKeyIsNotSentToTheProxy() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        let endpoint = server.rootURL.appending(path: "lessonplan").absoluteString
        _ = try writeConfig("endpoint = \(endpoint)\ntoken = \(Self.token)\ntoken_header = X-Teacher-Token\n", for: binary)
        let result = try await binary.run(["generate", "--topic", "Tides", "--no-repair"])
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try await server.requests()
        #expect(requests.count == 1)
        #expect(requests.first?.header("x-teacher-token") == Self.token)
        #expect(requests.first?.header("authorization") == nil, "the personal key went to the proxy")
        let key = try #require(binary.apiKey)
        #expect(!(requests.first?.rawHeaders ?? []).flatMap { $0 }.contains { $0.contains(key) })
    }
}
