import Foundation
import TestSupport
import Testing

/// The built binary against the loopback fake, one way of failing at a time: the sentence on
/// stderr, the exit status, the version left current, and what the transcript recorded.
///
/// Waits are kept short honestly: the fake sends `retry-after-ms: 10`, which the client obeys as
/// any server's, or the test passes `--max-retries 0`. Nothing here reaches beyond 127.0.0.1.
@Suite(.serialized) struct ConnectionEndToEndTests {
    static let lesson = ["--grade", "6-8", "--topic", "Tides", "--minutes", "45"]
    static let fast = ["retry-after-ms": "10"]

    /// The `turn_ended` lines of the newest transcript.
    func ends(_ binary: LessonplanBinary) throws -> [[String: Any]] {
        try binary.transcriptLines().filter { $0["type"] as? String == "turn_ended" }
    }

    func starts(_ binary: LessonplanBinary) throws -> [[String: Any]] {
        try binary.transcriptLines().filter { $0["type"] as? String == "turn_started" }
    }

    // MARK: - Retries

    @Test func aRateLimitIsWaitedOutAndTheWaitIsShown() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.error(status: 429, headers: Self.fast), .plan])
        let result = try await binary.run(["generate", "--topic", "Tides"])

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rate limited — retrying in 10 ms (1/2)"))
        #expect(result.stdout.contains("Plan #2"))
        #expect(try await server.requests().count == 2)
        let ends = try ends(binary)
        #expect(ends.map { $0["status"] as? String } == ["completed"])
    }

    @Test func fiveHundredThreeTimesFailsTheTurnAndKeepsTheVersion() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([
            .plan, .error(status: 500, headers: Self.fast), .error(status: 500, headers: Self.fast),
            .error(status: 500, headers: Self.fast),
        ])
        let result = try await binary.run(["generate", "--topic", "Tides", "--then", "/shorten 30"])

        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("server error 500 — retrying in 10 ms (1/2)"))
        #expect(result.stderr.contains("server error 500 — retrying in 10 ms (2/2)"))
        #expect(result.stderr.contains("The server had an error (500: The server had an error while processing your request."))
        #expect(result.stderr.contains("failed, still v1"))
        #expect(try await server.requests().count == 4)
        let ends = try ends(binary)
        #expect(ends.map { $0["status"] as? String } == ["completed", "failed"])
        #expect(ends.map { $0["version"] as? Int } == [1, nil])
        #expect((ends[1]["error"] as? String)?.hasPrefix("The server had an error (500") == true)
    }

    @Test func aSpentQuotaIsNotRetried() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([
            .error(
                status: 429, message: "You exceeded your current quota.", type: "insufficient_quota",
                code: "insufficient_quota", headers: Self.fast)
        ])
        let result = try await binary.run(["generate", "--topic", "Tides"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("quota is used up; check the plan and billing"))
        #expect(!result.stderr.contains("retrying"))
        #expect(try await server.requests().count == 1)
    }

    // MARK: - One sentence per failure

    struct Failure: Sendable, CustomTestStringConvertible {
        var step: FakeOpenAIServer.Step
        var sentence: String
        var status = "failed"
        var testDescription: String { sentence }
    }

    static let failures: [Failure] = [
        Failure(
            step: .error(status: 401, message: "Incorrect API key provided: sk-test-***9z8y.", code: "invalid_api_key"),
            sentence: "The API key was rejected (key ending …6w5v); check OPENAI_API_KEY"),
        Failure(step: .error(status: 403), sentence: "The key is not allowed to do this (403: You are not allowed to sample from this model.)"),
        Failure(
            step: .error(status: 404), sentence: "The model “gpt-5.2” was not found or this key cannot use it (404); choose another with --model"),
        Failure(
            step: .error(status: 400, message: "Invalid 'max_output_tokens': integer below minimum value."),
            sentence: "The server refused the request (400: Invalid 'max_output_tokens': integer below minimum value.)"),
        Failure(step: .html(status: 502), sentence: "127.0.0.1 answered HTTP 502 with “502 Bad Gateway” instead of a model stream"),
        Failure(
            step: .raw(body: "<html><body>\nPlease log in to the school network\n</body></html>").with(["content_type": "text/html"]),
            sentence: "127.0.0.1 answered HTTP 200 with “Please log in to the school network” instead of a model stream"),
        Failure(
            step: .raw(body: #"{"status":"ok","service":"gateway"}"#).with(["content_type": "application/json"]),
            sentence: #"127.0.0.1 answered HTTP 200 with “{"status":"ok","service":"gateway"}” instead of a model stream"#),
        // A whole response object is an answer, read like a stream's end; one without text is empty.
        Failure(
            step: .raw(body: #"{"id":"resp_1","object":"response","status":"completed"}"#).with(["content_type": "application/json"]),
            sentence: "The model answered with no text; the plan is unchanged"),
        Failure(
            step: .failed(message: "The model ran out of capacity.", afterDeltas: 3),
            sentence: "The model could not finish the answer (The model ran out of capacity.)"),
        Failure(
            step: .errorEvent(message: "Overloaded, try again.", code: "server_is_overloaded"),
            sentence: "The server reported an error mid-answer (Overloaded, try again.)"),
        Failure(step: .refusal("I can’t help with that."), sentence: "The model declined to write this plan: “I can’t help with that.”"),
        Failure(
            step: .incomplete(text: "Learning Objective\nStudents will"),
            sentence: "The answer stopped at the output limit of 8192 tokens; the partial text is kept as a draft: /continue finishes it",
            status: "incomplete"),
        Failure(step: .cut(afterDeltas: 3), sentence: "The connection to 127.0.0.1 dropped before the answer was complete"),
        Failure(
            step: .cut(afterDeltas: 3).with(["framing": "close"]),
            sentence: "The answer was cut off before it finished; the plan is unchanged; type /retry"),
    ]

    @Test(arguments: failures)
    func eachFailureIsOneSentenceAndRecorded(failure: Failure) async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, failure.step])
        let result = try await binary.run(["generate", "--topic", "Tides", "--then", "/shorten 30", "--max-retries", "0"])

        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(failure.sentence), "\(result.stderr)")
        #expect(result.stderr.contains(", still v1"))
        #expect(!result.stderr.contains("SECRETKEY"))
        let ends = try ends(binary)
        #expect(ends.count == 2)
        #expect(ends.last?["status"] as? String == failure.status)
        #expect(ends.last?["version"] == nil)
        #expect((ends.last?["error"] as? String)?.contains(failure.sentence) == true)
        #expect(try await server.requests().count == 2)
    }

    @Test func aURLWhereNothingAnswersIsNotBlamedOnTheModel() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let url = server.rootURL.appending(path: "nothing-here").absoluteString
        let result = try await binary.run(["generate", "--topic", "Tides", "--endpoint", url])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Nothing answers at \(url) (404: Invalid URL (POST /nothing-here))"))
        #expect(result.stderr.contains("--api chat"))
        #expect(try await server.requests().count == 1)
    }

    @Test func aRefusedConnectionNamesTheHost() async throws {
        // A port that was just open and is closed now: nothing listens there.
        let gone = try await FakeOpenAIServer()
        let url = gone.baseURL
        await gone.stop()
        let binary = try LessonplanBinary(baseURL: url)
        defer { binary.removeHome() }
        let result = try await binary.run(["generate", "--topic", "Tides", "--max-retries", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Cannot connect to 127.0.0.1 (connection refused or unreachable)"))
        #expect(try ends(binary).first?["status"] as? String == "failed")
    }

    @Test func aTLSFailureSaysSo() async throws {
        let server = try await FakeOpenAIServer()
        // The fake speaks plain HTTP, so a TLS handshake with it fails.
        let https = try #require(URL(string: "https://127.0.0.1:\(server.port)/v1"))
        let binary = try LessonplanBinary(baseURL: https)
        defer { binary.removeHome() }
        let result = try await binary.run(["generate", "--topic", "Tides", "--max-retries", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("The secure connection to 127.0.0.1 failed (TLS)"))
    }

    @Test func theIdleTimeoutPointsAtTimeout() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.hang(seconds: 30)])
        let result = try await binary.run(["generate", "--topic", "Tides", "--timeout", "1", "--max-retries", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("127.0.0.1 sent nothing for too long and the request timed out"))
        #expect(result.stderr.contains("--timeout"))
        #expect(try await server.clientClosed(request: 1))
    }

    @Test func theTotalDeadlineStopsATrickle() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.slow(delayMs: 250)])
        let result = try await binary.run(["generate", "--topic", "Tides", "--deadline", "1"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("The answer took longer than the 1 s limit and was stopped"))
        #expect(result.stderr.contains("--deadline"))
        let ends = try ends(binary)
        #expect(ends.first?["status"] as? String == "failed")
        #expect((ends.first?["output"] as? String)?.isEmpty == false)
    }

    // MARK: - /retry and /continue in the REPL

    @Test func aCutStreamKeepsItsTextAndRetryAsksAgain() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .cut(afterDeltas: 5), .plan])
        let result = try await binary.run(Self.lesson, input: "/shorten 30\n/retry\n/history\n/quit\n")

        // The cut turn did not complete; /retry then did, but the script saw a failed turn: exit 1.
        #expect(result.status == 1, "\(result.stderr)")
        // The partial answer stays on screen, under the footer that says nothing changed.
        let cut = try #require(result.stdout.range(of: "── v1")?.upperBound)
        #expect(result.stdout[cut...].contains("Learning Objective\nStudents will be"))
        #expect(result.stdout.contains("failed, still v1"))
        #expect(result.stderr.contains("dropped before the answer was complete; the plan is unchanged; type /retry"))
        #expect(result.stdout.contains("→ v2  6–8 · 30 min  /shorten 30 (from v1)"))
        let starts = try starts(binary)
        #expect(starts.map { $0["command"] as? String } == ["/generate", "/shorten 30", "/shorten 30"])
        #expect(starts[2]["retry_of"] as? Int == 2)
        #expect(starts[2]["input"] as? String == starts[1]["input"] as? String)
        let ends = try ends(binary)
        #expect(ends.map { $0["status"] as? String } == ["completed", "failed", "completed"])
        #expect(ends.map { $0["version"] as? Int } == [1, nil, 2])
        #expect((ends[1]["output"] as? String)?.hasPrefix("Learning Objective\nStudents will be") == true)
        let requests = try await server.requests()
        #expect(requests.count == 3)
        #expect(requests[2].inputText == requests[1].inputText)
    }

    @Test func anIncompleteAnswerIsKeptAsADraftAndContinueJoinsIt() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([
            .plan, .incomplete(text: "Learning Objective\nStudents will"), .text(" explain the tides.\nMaterials\n- A globe\n"),
        ])
        let result = try await binary.run(Self.lesson, input: "/shorten 30\n/continue\n/show\n/quit\n")

        // The first answer stopped early; /continue finished it, but the script saw a turn that did not complete.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("the partial text is kept as a draft: /continue finishes it"))
        #expect(result.stdout.contains("incomplete, still v1"))
        #expect(
            result.stdout.contains("── v2 · /continue · 6–8 · 30 min\nLearning Objective\nStudents will explain the tides.\nMaterials\n- A globe\n"))
        let starts = try starts(binary)
        #expect(starts.last?["command"] as? String == "/continue")
        #expect(starts.last?["template"] as? String == "continue")
        #expect(starts.last?["continues"] as? Int == 2)
        #expect(starts.last?["base_version"] as? Int == 1)
        let ends = try ends(binary)
        #expect(ends.map { $0["status"] as? String } == ["completed", "incomplete", "completed"])
        #expect(ends.last?["output"] as? String == "Learning Objective\nStudents will explain the tides.\nMaterials\n- A globe\n")
        #expect(try await server.requests().last?.inputText?.contains("<<<DRAFT\nLearning Objective\nStudents will\nDRAFT>>>") == true)
    }

    @Test func retryAndContinueSayWhenThereIsNothingToDo() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(Self.lesson, input: "/retry\n/continue\n/quit\n")
        // Both lines are rejected (nothing to retry or continue).
        #expect(result.status == 1)
        #expect(result.stderr.contains("Nothing to retry: the last request completed"))
        #expect(result.stderr.contains("Nothing to continue"))
        #expect(try await server.requests().count == 1)
    }

    @Test func ctrlCDuringARetryWaitCancelsAndReturnsToThePrompt() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .error(status: 429, headers: ["retry-after": "30"])])
        let running = try binary.start(Self.lesson)
        running.write("/shorten 30\n")
        try await running.waitForError("rate limited — retrying in 30 s (1/2)")
        running.interrupt()
        try await running.waitForOutput("cancelled, still v1")
        running.write("/retry\n/quit\n")
        running.closeInput()
        let result = try await running.wait()

        // The cancelled turn did not complete.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Cancelled; the plan is unchanged."))
        #expect(result.stdout.contains("── v2"))
        let ends = try ends(binary)
        #expect(ends.map { $0["status"] as? String } == ["completed", "cancelled", "completed"])
        // The wait was cancelled, not sat out: the cancelled turn sent one request, /retry one more.
        #expect(try await server.requests().count == 3)
    }

    // MARK: - Other servers and proxies

    @Test func anEndpointGetsTheBodyAsItIsAndNeedsNoKey() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL, apiKey: nil)
        defer { binary.removeHome() }
        let endpoint = server.rootURL.appending(path: "lessonplan").absoluteString
        let result = try await binary.run([
            "generate", "--topic", "Tides", "--endpoint", endpoint, "--header", "X-Proxy-Token: classroom-7",
            "--header", "X-School: Lincoln Middle",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Learning Objective"))
        let request = try #require(try await server.requests().first)
        #expect(request.path == "/lessonplan")
        #expect(request.header("authorization") == nil)
        #expect(request.header("x-proxy-token") == "classroom-7")
        #expect(request.header("x-school") == "Lincoln Middle")
        #expect(request.model == "gpt-5.2" && request.stream == true && request.store == false)
        #expect(request.maxOutputTokens == 8192)
        let header = try #require(try binary.transcriptLines().first)
        #expect(header["base_url"] as? String == endpoint)
    }

    @Test(arguments: [false, true])
    func chatCompletionsWorkTheSame(llama: Bool) async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        if llama { try await server.script([.llama, .llama]) }
        let result = try await binary.run(["generate", "--topic", "Tides", "--api", "chat", "--then", "/shorten 30"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("30 minutes in total"))
        let requests = try await server.requests()
        #expect(requests.map(\.path) == ["/v1/chat/completions", "/v1/chat/completions"])
        #expect(requests[0].body?["messages"]?[0]?["role"]?.stringValue == "system")
        #expect(requests[0].body?["max_completion_tokens"]?.intValue == 8192)
        #expect(requests[0].body?["max_tokens"] == nil, "deprecated, and refused by OpenAI's newer models")
        let ends = try ends(binary)
        #expect(ends.map { $0["status"] as? String } == ["completed", "completed"])
        #expect(ends.allSatisfy { ($0["usage"] as? [String: Any])?["output_tokens"] != nil })
    }

    /// A server that knows only `max_tokens` (an older llama-server or gateway) says which parameter it
    /// refused: the request goes once more with the old name, and the turn completes.
    @Test func aServerThatRefusesMaxCompletionTokensGetsMaxTokensOnce() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let refusal = FakeOpenAIServer.Step.error(
            status: 400, message: "Unrecognized request argument supplied: max_completion_tokens", code: "unsupported_parameter")
        try await server.script([refusal, .plan, .error(status: 400, message: "Invalid value for max_tokens", code: "invalid_value")])
        let result = try await binary.run(["generate", "--topic", "Tides", "--api", "chat", "--no-repair"])
        #expect(result.status == 0, "\(result.stderr)")
        var requests = try await server.requests()
        #expect(requests.count == 2)
        #expect(requests[0].body?["max_completion_tokens"]?.intValue == 8192 && requests[0].body?["max_tokens"] == nil)
        #expect(requests[1].body?["max_tokens"]?.intValue == 8192 && requests[1].body?["max_completion_tokens"] == nil)
        // Any other 400 is not sent again.
        try await server.reset()
        try await server.script([.error(status: 400, message: "Invalid value for messages", code: "invalid_value")])
        let refused = try await binary.run(["generate", "--topic", "Tides", "--api", "chat", "--no-repair"])
        #expect(refused.status != 0)
        requests = try await server.requests()
        #expect(requests.count == 1)
    }

    /// The whole budget went to reasoning: no text, so no draft and no /continue; the limit quoted is the
    /// one the response states (a proxy may have set it), not the one asked for.
    @Test func anIncompleteAnswerWithNoTextSaysSoAndQuotesTheStatedLimit() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let response =
            #"{"id":"resp_9","object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"max_output_tokens":100,"usage":{"input_tokens":900,"output_tokens":100,"output_tokens_details":{"reasoning_tokens":100}}}"#
        let body =
            "data: {\"type\":\"response.created\",\"response\":{\"id\":\"resp_9\"}}\n\n"
            + "data: {\"type\":\"response.incomplete\",\"response\":\(response)}\n\n"
        try await server.script([.raw(headers: ["Content-Type": "text/event-stream"], body: body)])
        let result = try await binary.run(Self.lesson, input: "/continue\n/quit\n")
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "The model used the output limit of 100 tokens the response states before writing any text (its reasoning counts against the limit), so there is no draft to continue; the plan is unchanged; that limit is not the one this tool asked for"
            ),
            "\(result.stderr)")
        #expect(!result.stderr.contains("8192"), "\(result.stderr)")
        #expect(!result.stderr.contains("/continue finishes it"), "\(result.stderr)")
        #expect(try await server.requests().count == 1)
        // Without a proxy's limit, the sentence says how to raise the tool's own.
        try await server.script([.raw(headers: ["Content-Type": "text/event-stream"], body: body.replacingOccurrences(of: ":100,", with: ":8192,"))])
        let own = try await binary.run(Self.lesson, input: "/quit\n")
        #expect(own.stderr.contains("output limit of 8192 tokens before writing any text"), "\(own.stderr)")
        #expect(own.stderr.contains("raise it with --max-output-tokens (e.g. --max-output-tokens 16384) when you start or resume the session."))
    }

    /// Money spent, or a request bigger than the per-minute limit: waiting cannot help, so no /retry and no
    /// automatic retry, whether the API says it as a status or inside the stream.
    @Test(arguments: [
        FakeOpenAIServer.Step.errorEvent(
            message: "You exceeded your current quota, please check your plan and billing details.", code: "insufficient_quota"),
        .failed(message: "You exceeded your current quota.", code: "insufficient_quota"),
        .error(status: 429, message: "You exceeded your current quota.", code: "insufficient_quota"),
        .error(
            status: 429, message: "Request too large for gpt-5.2 in organization org-1 on tokens per min (TPM): Limit 30000, Requested 45000.",
            code: "rate_limit_exceeded"),
        .errorEvent(message: "Request too large for gpt-5.2 on tokens per min (TPM): Limit 30000, Requested 45000.", code: "rate_limit_exceeded"),
    ])
    func quotaAndSizeErrorsNeverSuggestRetry(step: FakeOpenAIServer.Step) async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([step, .plan, .plan])
        let result = try await binary.run(["generate", "--topic", "Tides"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("/retry"), "\(result.stderr)")
        #expect(
            result.stderr.contains("quota is used up; check the plan and billing")
                || result.stderr.contains("larger than the model's limit allows"), "\(result.stderr)")
        #expect(try await server.requests().count == 1, "not retried")
    }

    @Test func llamaServerStyleResponsesEventsAreRead() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.llama, .llama.with(["event_lines": false])])
        let result = try await binary.run(["generate", "--topic", "Tides", "--then", "/shorten 30"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Plan #2 — grade band 6–8, 30 minutes in total."))
        #expect(!result.stderr.contains("Skipped"))
        #expect(try ends(binary).map { $0["status"] as? String } == ["completed", "completed"])
    }

    @Test func llamaServerStoppingAtTheLimitIsNotTakenForAWholePlan() async throws {
        // llama-server says `completed` at the output limit; its usage shows the limit was hit.
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.llama])
        let result = try await binary.run(Self.lesson + ["--max-output-tokens", "256"], input: "/quit\n")
        // The answer stopped at the limit: a turn that did not complete.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("The answer stopped at the output limit of 256 tokens"))
        #expect(result.stdout.contains("incomplete, no plan yet"))
        #expect(try ends(binary).first?["status"] as? String == "incomplete")
    }

    @Test func localUsesTheServerOnThisMachineWithoutTheKey() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: nil)
        defer { binary.removeHome() }
        binary.environment["LESSONPLAN_LOCAL_PORT"] = String(server.port)
        let result = try await binary.run(["generate", "--topic", "Tides", "--local"])
        #expect(result.status == 0, "\(result.stderr)")
        // The first offline plan is introduced honestly, once.
        #expect(
            result.stderr.components(
                separatedBy: "Offline model: SmolLM2-135M, a tiny model running on this machine, for trying the tool, not for class"
            ).count == 2)
        #expect(result.stderr.contains("set OPENAI_API_KEY, use your school's --endpoint, or install the larger offline model"))
        let request = try #require(try await server.requests().first)
        // Structured by default: Chat Completions, where llama-server enforces the schema.
        #expect(request.path == "/v1/chat/completions")
        #expect(request.header("authorization") == nil)
        #expect(request.model == "SmolLM2-135M-Instruct")
        // llama-server reads max_completion_tokens (server-task.cpp: n_predict, else it, else max_tokens).
        #expect(request.body?["max_completion_tokens"]?.intValue == 2048)

        let doctor = try await binary.run(["doctor", "--local"])
        #expect(doctor.status == 0, "\(doctor.stderr)")
        #expect(doctor.stdout.contains("API key       not needed (--local)"))
        #expect(doctor.stdout.contains("posts to      http://127.0.0.1:\(server.port)/v1/chat/completions"))
        #expect(doctor.stdout.contains("structure     written by the tool"))
        #expect(!doctor.stdout.contains("SECRETKEY"))
        #expect(doctor.stdout.contains("offline       not installed (scripts/local-model install)"))

        // With the 1.5b installed (as its stamp says), --local asks for it by name, says which it is, and doctor names it.
        let stamp = binary.home.appending(path: "local-model/install.stamp")
        try FileManager.default.createDirectory(at: stamp.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("model: 1.5b Qwen2.5-Coder-1.5B-Instruct\n".utf8).write(to: stamp)
        let qwen = try await binary.run(["generate", "--topic", "Tides", "--local"])
        #expect(qwen.status == 0, "\(qwen.stderr)")
        #expect(qwen.stderr.contains("Offline model: Qwen2.5-Coder-1.5B, running on this machine"), "\(qwen.stderr)")
        #expect(try await server.requests().last?.model == "Qwen2.5-Coder-1.5B-Instruct")
        let named = try await binary.run(["doctor", "--local"])
        #expect(named.stdout.contains("offline       Qwen2.5-Coder-1.5B-Instruct, installed (scripts/local-model install --model 1.5b)"))
        #expect(named.stdout.contains("model         Qwen2.5-Coder-1.5B-Instruct (the offline model, --local)"))

        await server.stop()
        let down = try await binary.run(["generate", "--topic", "Tides", "--local", "--max-retries", "0"])
        #expect(down.status == 1)
        #expect(down.stderr.contains("The offline model is not running on 127.0.0.1:\(server.port); start it with scripts/local-model start"))

        // A server that died by a signal at start (scripts/local-model writes why): the sentence names the
        // signal and the rebuild, and no retry is spent waiting for it.
        let folder = binary.home.appending(path: "local-model")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("signal SIGILL (illegal instruction)\n".utf8).write(to: folder.appending(path: "llama-server.died"))
        let died = try await binary.run(["generate", "--topic", "Tides", "--local"])
        #expect(died.status == 1)
        #expect(died.stderr.contains("The offline model's server died at start (signal SIGILL (illegal instruction))"), "\(died.stderr)")
        #expect(died.stderr.contains("scripts/local-model install --rebuild"))
        #expect(!died.stderr.contains("retrying"), "\(died.stderr)")

        binary.environment["LESSONPLAN_LOCAL_PORT"] = "abc"
        let badPort = try await binary.run(["generate", "--topic", "Tides", "--local"])
        #expect(badPort.status == 2 && badPort.stderr.contains("LESSONPLAN_LOCAL_PORT must be a port number from 1 to 65535"), "\(badPort.stderr)")
    }

    @Test func theKeyIsNotSentOverPlainHTTPToAnotherMachine() async throws {
        // 192.0.2.1 is TEST-NET-1: the refusal comes before any connection is tried.
        let binary = try LessonplanBinary(baseURL: URL(string: "http://192.0.2.1/v1"))
        defer { binary.removeHome() }
        let base = try await binary.run(["generate", "--topic", "Tides"])
        #expect(base.status == 2)
        #expect(base.stderr.contains("Refusing to send the API key over plain http:// to 192.0.2.1"))
        #expect(base.stderr.contains("--allow-insecure"))
        let endpoint = try await binary.run(["generate", "--topic", "Tides", "--endpoint", "http://192.0.2.1/lessonplan"])
        #expect(endpoint.status == 2)
        #expect(endpoint.stderr.contains("Refusing to send the API key"))
        #expect(!base.stderr.contains("SECRETKEY") && !endpoint.stderr.contains("SECRETKEY"))
    }

    @Test func libcurlTakesTheProxyFromTheEnvironmentAndHonoursNoProxy() async throws {
        let server = try await FakeOpenAIServer()
        // Through the proxy: the fake plays the proxy, so the request line names the far host,
        // which is never resolved (.invalid) because an HTTP proxy is asked for it instead.
        var proxied = try LessonplanBinary(baseURL: URL(string: "http://lessonplan-test.invalid/v1"), apiKey: nil)
        defer { proxied.removeHome() }
        proxied.environment["http_proxy"] = server.rootURL.absoluteString
        let through = try await proxied.run(["generate", "--topic", "Tides", "--endpoint", "http://lessonplan-test.invalid/v1/responses"])
        #expect(through.status == 0, "\(through.stderr)")
        #expect(try await server.requests().first?.path == "http://lessonplan-test.invalid/v1/responses")

        // Around the proxy: NO_PROXY lists the host, so the dead proxy is never used.
        var direct = try LessonplanBinary(baseURL: server.baseURL)
        defer { direct.removeHome() }
        direct.environment["http_proxy"] = "http://127.0.0.1:9"
        direct.environment["NO_PROXY"] = "127.0.0.1"
        let around = try await direct.run(["generate", "--topic", "Tides", "--max-retries", "0"])
        #expect(around.status == 0, "\(around.stderr)")
        #expect(try await server.requests().count == 2)
    }

    // MARK: - doctor

    @Test func doctorShowsTheSettingsAndChecksTheConnection() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        binary.environment["https_proxy"] = "http://teacher:hunter2@proxy.school.invalid:3128"
        let result = try await binary.run(["doctor", "--header", "X-Proxy-Token: abc"])

        #expect(result.status == 0, "\(result.stderr)")
        for expected in [
            "API key       sk-…6w5v", "base URL      \(server.baseURL.absoluteString)", "endpoint      none",
            "posts to      \(server.baseURL.absoluteString)/responses", "model         gpt-5.2",
            "API           responses", "headers       X-Proxy-Token", "data dir      \(binary.home.path)",
            "prompts       built in", "proxy         none", "OK — the model answered in",
        ] {
            #expect(result.stdout.contains(expected), "\(expected) in \(result.stdout)")
        }
        #expect(!result.stdout.contains("SECRETKEY") && !result.stderr.contains("SECRETKEY"))
        #expect(!result.stdout.contains("abc"))
        let request = try #require(try await server.requests().first)
        #expect(request.maxOutputTokens == 16)
        #expect(request.inputText == "Say OK.")
        #expect(request.header("x-proxy-token") == "abc")
        // doctor writes no session.
        let sessions = (try? FileManager.default.contentsOfDirectory(atPath: binary.home.appending(path: "sessions").path)) ?? []
        #expect(sessions.isEmpty)
    }

    @Test func doctorReportsTheFailureSentenceAndExits1() async throws {
        let gone = try await FakeOpenAIServer()
        let url = gone.baseURL
        await gone.stop()
        let binary = try LessonplanBinary(baseURL: url, apiKey: nil)
        defer { binary.removeHome() }
        let result = try await binary.run(["doctor", "--endpoint", url.absoluteString + "/responses"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("API key       not set (optional with --endpoint)"))
        #expect(result.stderr.contains("Cannot connect to 127.0.0.1 (connection refused or unreachable)"))
        let noKey = try await binary.run(["doctor"])
        #expect(noKey.status == 1)
        #expect(noKey.stdout.contains("API key       not set\n"))
        #expect(noKey.stderr.contains("No API key is set"))
    }
}
