import Foundation
import Testing
import TestSupport

/// `/redo SECTION` through the built binary against the scripted server (issue #38): one request whose answer
/// is one section, a version that differs from its parent in that section alone, and a change of its time
/// refused before anything is sent.
@Suite struct RedoEndToEndTests {
    @Test func oneSectionIsWrittenAgainAndTheRestIsKept() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "tides", "--no-repair"],
            input: "/redo warm-up 10 minutes of tide pools\n/redo d\n/redo warm-up more hands-on\n/quit\n")
        let all = result.stdout + result.stderr
        #expect(all.contains("Warm-Up takes 5 minutes; making it 10 would make the lesson 50 minutes, not 45. Nothing was sent"), "\(all)")
        #expect(all.contains("“d” could be Direct Instruction or Differentiation"), "\(all)")
        #expect(all.contains("changed: Warm-Up; 9 sections unchanged"), "\(all)")
        let requests = try await server.requests()
        #expect(requests.count == 2, "the refused ones sent nothing")
        let input = try #require(requests.last?.inputText)
        #expect(input.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("Reply with the Warm-Up (5 min) section only, under its heading."), "\(input.suffix(200))")
        #expect(input.contains("more hands-on"))

        // The saved version is the first plan with its warm-up replaced, and nothing else.
        let shown = try await binary.run(["export", "tides", "--format", "md"])
        #expect(shown.stdout.contains("(written again in request #2)"), "\(shown.stdout)")
        let ends = try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
        let first = try #require(ends.first?["output"] as? String)
        let second = try #require(ends.last?["output"] as? String)
        let firstLines = first.components(separatedBy: "\n")
        let secondLines = second.components(separatedBy: "\n")
        #expect(firstLines.count == secondLines.count)
        let differing = zip(firstLines, secondLines).filter { $0 != $1 }
        #expect(differing.count == 1 && differing[0].1.hasSuffix("(written again in request #2)"), "\(differing)")
        #expect(differing[0].0.contains("Quick-write"), "the line that changed is the warm-up's")
    }
}
