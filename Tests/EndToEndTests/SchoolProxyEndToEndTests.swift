import Foundation
import Testing
import TestSupport

/// The built binary through the project's own school proxy (`proxy/worker.js` under Node), with
/// the scripted server standing in for api.openai.com: a teacher token in, the school's key out.
@Suite(.serialized) struct SchoolProxyEndToEndTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let token = "lpt_teacher-token-for-tests-0123456789abcdef"
    static let schoolKey = "sk-school.UPSTREAM-KEY-4321"

    /// The hash an administrator adds, made by the project's own `teacher-token.mjs`.
    static func hash(_ token: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["node", repository.appending(path: "proxy/teacher-token.mjs").path, "--hash", token]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        // The hash is the one run of 64 hex digits in what it prints.
        let words = text.split(whereSeparator: { !$0.isHexDigit })
        return try #require(words.first { $0.count == 64 }.map(String.init), "teacher-token.mjs printed: \(text)")
    }

    func start() async throws -> (FakeOpenAIServer, WorkerHost, LessonplanBinary) {
        let upstream = try await FakeOpenAIServer()
        let worker = try await WorkerHost(
            .module(Self.repository.appending(path: "proxy/worker.js")), upstream: upstream,
            env: [
                "OPENAI_API_KEY": Self.schoolKey, "TEACHER_TOKEN_SHA256": try Self.hash(Self.token),
                "ALLOWED_MODELS": "gpt-5.2", "MAX_OUTPUT_TOKENS": "8192",
            ])
        var binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
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
}
