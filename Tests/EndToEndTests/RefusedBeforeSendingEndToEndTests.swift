import Foundation
import TestSupport
import Testing

/// Input that cannot make a sensible request is refused with one sentence before anything is sent.
@Suite(.serialized) struct RefusedBeforeSendingEndToEndTests {
    static let prompts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "prompts")

    @Test func aTemplateWithAnUnclosedPlaceholderIsRefused() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let folder = binary.home.appending(path: "prompts")
        try FileManager.default.copyItem(at: Self.prompts, to: folder)
        let generate = folder.appending(path: "generate.txt")
        let text = try String(contentsOf: generate, encoding: .utf8)
        try ("Write a lesson on {{topic\n" + text).write(to: generate, atomically: true, encoding: .utf8)
        let result = try await binary.run(["generate", "--topic", "Tides", "--prompts", folder.path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr
                == "\(generate.path), line 1: a placeholder opens with {{ but is not closed with }} on that line; close it, e.g. {{topic}}.\n",
            "\(result.stderr)")
        #expect(try await server.requests().isEmpty)
    }

    @Test func aTopicOfOneHugeCharacterIsRefused() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        // One grapheme: "e" and 50,000 combining acute accents, 100 KB.
        let topic = "e" + String(repeating: "\u{301}", count: 50_000)
        #expect(topic.count == 1)
        let result = try await binary.run(["generate", "--topic", topic])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("The topic is 100001 bytes long"), "\(result.stderr.prefix(300))")
        #expect(try await server.requests().isEmpty)
        // 200 characters of a script that takes three bytes each still fit.
        let fits = try await binary.run(["generate", "--topic", String(repeating: "潮", count: 200), "--no-repair"])
        #expect(fits.status == 0, "\(fits.stderr)")
    }
}
