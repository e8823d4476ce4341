import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built binary through the project's own school proxy (`proxy/worker.js` under Node), with
/// the scripted server standing in for api.openai.com: a teacher token in, the school's key out.
@Suite(.serialized) struct SchoolProxyEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let token = "lpt_teacher-token-for-tests-0123456789abcdef"
    static let schoolKey = "sk-school.UPSTREAM-KEY-4321"

    /// The hash an administrator adds, made by the project's own `teacher-token.mjs`.
    static func hash(_ token: String) async throws -> String {
        let text = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["node", repository.appending(path: "proxy/teacher-token.mjs").path, "--hash", token],
            mergingErrors: false
        ).output
        // The hash is the one run of 64 hex digits in what it prints.
        let words = text.split(whereSeparator: { !$0.isHexDigit })
        return try #require(words.first { $0.count == 64 }.map(String.init), "teacher-token.mjs printed: \(text)")
    }

    /// The upstream, the worker (with `env` added to the school's settings) and the tool with the
    /// teacher's token and, when given, a personal `apiKey` in `OPENAI_API_KEY`.
    func start(env extra: [String: String] = [:], apiKey: String? = nil) async throws
        -> (FakeOpenAIServer, WorkerHost, LessonplanBinary)
    {
        let upstream = try await FakeOpenAIServer()
        let hash = try await Self.hash(Self.token)
        let env = [
            "OPENAI_API_KEY": Self.schoolKey, "TEACHER_TOKEN_SHA256": hash,
            "ALLOWED_MODELS": "gpt-5.2", "MAX_OUTPUT_TOKENS": "8192",
        ].merging(extra) { $1 }
        let worker = try await WorkerHost(
            .module(Self.repository.appending(path: "proxy/worker.js")), upstream: upstream, env: env)
        var binary = try LessonplanBinary(baseURL: nil, apiKey: apiKey)
        binary.environment["LESSONPLAN_TOKEN"] = Self.token
        return (upstream, worker, binary)
    }

    @Test func aTeacherStreamsAndRefinesThroughTheSchoolProxy() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        let endpoint = worker.rootURL.appending(path: "v1/responses").absoluteString
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "40", "--endpoint", endpoint],
            input: "/shorten 30\n/regrade 6-8\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("── v3 ·"), "\(result.stdout)")
        #expect(!result.stdout.contains("not streamed"), "the proxy pipes the stream through")

        let sent = try await upstream.requests()
        #expect(sent.count == 3)
        for request in sent {
            #expect(request.stream == true && request.store == false)
            #expect(request.header("authorization") == "Bearer \(Self.schoolKey)")
        }
        // The teacher's token is never written down.
        for file in binary.writtenFiles() { #expect(!file.contents.contains(Self.token), "\(file.path)") }
    }

    @Test func anUnknownTokenGetsTheToolsSentenceAndNothingReachesTheAPI() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        var stranger = binary
        stranger.environment["LESSONPLAN_TOKEN"] = "lpt_not-a-teacher-of-this-school-000000"
        let endpoint = worker.rootURL.appending(path: "v1/responses").absoluteString
        let result = try await stranger.run(
            ["generate", "--grade", "4", "--topic", "Tides", "--minutes", "40", "--endpoint", endpoint])
        #expect(result.status != 0)
        #expect(result.stderr.contains("401") || result.stderr.lowercased().contains("rejected"), "\(result.stderr)")
        #expect(try await upstream.requests().isEmpty)
    }

    @Test func structuredPlansWorkThroughTheSchoolProxy() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        let endpoint = worker.rootURL.appending(path: "v1/responses").absoluteString
        let result = try await binary.run(
            ["generate", "--grade", "4", "--topic", "Tides", "--minutes", "40", "--structured", "--endpoint", endpoint])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Learning Objective\n- "), "\(result.stdout)")
        #expect(!result.stdout.contains("\"exit_ticket\""))
        #expect(!result.stderr.contains("/retry"), "\(result.stderr)")

        // The worker passed the tool's schema on as the tool wrote it.
        let sent = try await upstream.requests()
        #expect(sent.count == 1)
        let format = sent.first?.body?["text"]?["format"]
        #expect(format?["type"] == .string("json_schema") && format?["strict"] == .bool(true))
        #expect(format?["name"] == .string("lesson_plan"))
        #expect(format?["schema"]?["required"]?.arrayValue?.compactMap(\.stringValue).contains("exit_ticket") == true)
        #expect(sent.first?.store == false)
    }

    @Test func theSchoolsHeaderIsTriedFirstAndAPersonalKeyNeverReachesTheProvider() async throws {
        let personalKey = "sk-proj-PERSONAL.teacher-own-key-97531"
        let (upstream, worker, binary) = try await start(env: ["TEACHER_TOKEN_HEADER": "X-Teacher-Token"], apiKey: personalKey)
        defer { binary.removeHome() }
        let folder = binary.home.appending(path: ".config/lessonplan")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = folder.appending(path: "config")
        try Data("token_header = X-Teacher-Token\n".utf8).write(to: config)
        #expect(chmod(config.path, 0o600) == 0)
        let endpoint = worker.rootURL.appending(path: "v1/responses").absoluteString
        let result = try await binary.run(["generate", "--grade", "4", "--topic", "Tides", "--minutes", "40", "--endpoint", endpoint])
        #expect(result.status == 0, "\(result.stderr)")

        let sent = try await upstream.requests()
        #expect(sent.count == 1)
        for request in sent {
            #expect(request.header("authorization") == "Bearer \(Self.schoolKey)")
            #expect(!request.headers.values.contains { $0.contains(personalKey) })
            #expect(request.rawBody?.contains(personalKey) != true)
        }
    }
}
