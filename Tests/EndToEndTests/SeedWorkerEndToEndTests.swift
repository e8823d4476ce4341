import Foundation
import LessonPlanKit
import TestSupport
import Testing

/// The built binary through the original demo's own proxy, its worker run unchanged under Node 20
/// (cut from the seed text at run time) with the project's scripted server standing in for
/// api.openai.com. That worker drops `stream` and returns the whole response object as JSON.
@Suite(.serialized, .enabled(if: WorkerHost.seedTestsRun, Comment(rawValue: WorkerHost.seedSkipReason)))
struct SeedWorkerEndToEndTests {
    static let lesson = ["--grade", "6-8", "--topic", "Photosynthesis", "--minutes", "45"]

    /// The upstream fake, the worker in front of it, and a binary without an API key of its own:
    /// the key lives in the worker, as the demo prescribes.
    func start() async throws -> (FakeOpenAIServer, WorkerHost, LessonplanBinary) {
        let upstream = try await FakeOpenAIServer()
        let worker = try await WorkerHost(seedWorkerUpstream: upstream)
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        return (upstream, worker, binary)
    }

    func endpoint(_ worker: WorkerHost, path: String = "lessonplan") -> String {
        worker.rootURL.appending(path: path).absoluteString
    }

    func ends(_ binary: LessonplanBinary) throws -> [[String: Any]] {
        try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
    }

    @Test func generateThroughTheDemoWorkerIsAWholeAnswer() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        let result = try await binary.run(["generate"] + Self.lesson + ["--endpoint", endpoint(worker)])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Learning Objective") && result.stdout.contains("Plan #1"))
        let footer = try #require(result.stderr.split(separator: "\n").first { $0.hasPrefix("── v1 ·") })
        #expect(footer.contains("✓ structure · ✓ content") && footer.contains("not streamed"), "\(footer)")
        #expect(footer.contains(" in / "), "usage is shown: \(footer)")

        let ends = try ends(binary)
        #expect(ends.map { $0["status"] as? String } == ["completed"])
        #expect(ends.map { $0["version"] as? Int } == [1])
        #expect(ends[0]["streamed"] as? Bool == false)
        #expect((ends[0]["usage"] as? [String: Any])?["output_tokens"] as? Int ?? 0 > 0)
        #expect((ends[0]["output"] as? String)?.contains("Plan #1") == true)

        // What the worker made of the tool's request on its way to the "API".
        let sent = try #require(try await upstream.requests().first)
        #expect(sent.path == "/v1/responses")
        #expect(sent.stream == nil, "the demo worker drops stream")
        #expect(sent.header("authorization") == "Bearer \(WorkerHost.upstreamKey)")
        #expect(sent.inputText?.contains("Photosynthesis") == true)
        for file in binary.writtenFiles() { #expect(!file.contents.contains(WorkerHost.upstreamKey)) }
        await worker.stop()
    }

    @Test func aPipedSessionThroughTheDemoWorkerShortensAndRegrades() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        let result = try await binary.run(
            Self.lesson + ["--endpoint", endpoint(worker)], input: "/shorten 30\n/regrade 3–5\n/history\n/quit\n")

        #expect(result.status == 0, "\(result.stderr)")
        for version in 1...3 {
            let footer = result.stdout.split(separator: "\n").first { $0.hasPrefix("── v\(version) ·") }
            #expect(footer?.contains("not streamed") == true, "v\(version): \(result.stdout)")
        }
        #expect(result.stdout.contains("→ v3  3–5 · 30 min  /regrade 3–5 (from v2)"))
        let ends = try ends(binary)
        #expect(ends.map { $0["version"] as? Int } == [1, 2, 3])
        #expect(ends.allSatisfy { $0["streamed"] as? Bool == false })
        let requests = try await upstream.requests()
        #expect(requests.count == 3)
        #expect(requests[1].inputText?.contains("in 30 minutes instead of 45") == true)
        #expect(requests[2].inputText?.contains("Rewrite it for grades 3–5 instead of grades 6–8.") == true)
        await worker.stop()
    }

    @Test func anAnswerCutAtTheLimitIsADraftWithTheProxyNote() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        try await upstream.script([.incomplete(text: "## Learning Objective\nStudents will explain how pla")])
        let result = try await binary.run(Self.lesson + ["--endpoint", endpoint(worker)], input: "/continue\n/quit\n")

        // The first answer stopped early (a turn that did not complete), so the script exits 1.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains("the proxy at --endpoint may set max_output_tokens itself (the original demo's worker uses 900 when none is sent"))
        #expect(result.stderr.contains("/continue finishes it"))
        #expect(result.stdout.contains("incomplete, no plan yet"))
        let ends = try ends(binary)
        #expect(ends.map { $0["status"] as? String } == ["incomplete", "completed"])
        #expect(ends.map { $0["version"] as? Int } == [nil, 1])
        #expect((ends[1]["output"] as? String)?.hasPrefix("## Learning Objective\nStudents will explain how pla") == true)
        await worker.stop()
    }

    // MARK: - The worker's own refusals

    @Test func aWrongPathIsExplainedWithTheWorkersPath() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        let url = endpoint(worker, path: "api/lessonplan")
        let result = try await binary.run(["generate"] + Self.lesson + ["--endpoint", url])

        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "Nothing answers at \(url) (404 “Not found”): the endpoint's URL path is probably wrong; the original demo's worker answers only at /lessonplan"
            ), "\(result.stderr)")
        #expect(try await upstream.requests().isEmpty)
        await worker.stop()
    }

    @Test func chatBodiesAreMissingInputToTheWorker() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        let result = try await binary.run(["generate"] + Self.lesson + ["--endpoint", endpoint(worker), "--api", "chat"])

        #expect(result.status == 1)
        #expect(
            result.stderr.contains("found no input in the request (400 “Missing input”); it takes the Responses API body, so leave out --api chat"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("{\"error\""))
        #expect(try await upstream.requests().isEmpty)
        await worker.stop()
    }

    @Test func aRedirectThatTurnsThePostIntoAGetIsExplained() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        // A 302 in front of the worker: libcurl follows it with GET, as browsers and URLSession do.
        let front = try await FakeOpenAIServer()
        try await front.script([.raw(status: 302, headers: ["Location": endpoint(worker)], body: "")])
        let result = try await binary.run(
            ["generate"] + Self.lesson + ["--endpoint", front.rootURL.appending(path: "lessonplan").absoluteString])

        #expect(result.status == 1)
        #expect(result.stderr.contains("takes only POST (405 “Method not allowed”); a redirect"), "\(result.stderr)")
        #expect(try await upstream.requests().isEmpty)
        await worker.stop()
    }

    /// The demo worker forwards only model, instructions, input and max_output_tokens: a `--structured`
    /// request loses its schema there. The answer is read as the free-text plan it is, said once, and the
    /// session goes on asking for free text; nothing suggests /retry.
    @Test func structuredThroughTheDemoWorkerFallsBackToFreeTextOnce() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        let result = try await binary.run(
            Self.lesson + ["--endpoint", endpoint(worker), "--structured", "--no-repair"], input: "/shorten 30\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let notice = "did not pass the plan's structure (the request's text field) on to the model"
        #expect(result.stderr.components(separatedBy: notice).count == 2, "said once: \(result.stderr)")
        #expect(!result.stderr.contains("/retry"), "\(result.stderr)")
        #expect(try ends(binary).map { $0["version"] as? Int } == [1, 2])
        let requests = try await upstream.requests()
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.body?["text"] == nil }, "the worker drops text")
        await worker.stop()
    }

    /// The same through `generate` and `unit` from the shell: the teacher is told, in one sentence, that the
    /// structure asked for did not reach the model.
    @Test func structuredGenerateAndUnitThroughTheDemoWorkerSayTheStructureWasDropped() async throws {
        let (upstream, worker, binary) = try await start()
        defer { binary.removeHome() }
        let notice = "did not pass the plan's structure (the request's text field) on to the model"
        let generate = try await binary.run(["generate"] + Self.lesson + ["--endpoint", endpoint(worker), "--structured"])
        #expect(generate.status == 0, "\(generate.stderr)")
        #expect(generate.stderr.components(separatedBy: notice).count == 2, "said once: \(generate.stderr)")
        let unit = try await binary.run(
            ["unit", "--grade", "4", "--topic", "Fractions", "--lessons", "2", "--minutes", "45", "--endpoint", endpoint(worker), "--structured"])
        #expect(unit.stderr.contains(notice), "\(unit.status): \(unit.stderr)")
        #expect(try await upstream.requests().allSatisfy { $0.body?["text"] == nil }, "the worker drops text")
        await worker.stop()
    }
}
