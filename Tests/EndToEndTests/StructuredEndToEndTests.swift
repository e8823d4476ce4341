import Foundation
import LessonPlanCore
import LessonPlanKit
import TestSupport
import Testing

/// Structured plans end to end: the built tool sends a JSON schema, the scripted server answers JSON for
/// it, and the plan the tool renders from that answer is what the screen, the check and the transcript see.
@Suite(.serialized) struct StructuredEndToEndTests {
    static let defaultKeys = [
        "learning_objective", "materials", "warm_up", "direct_instruction", "guided_practice", "independent_practice",
        "differentiation", "check_for_understanding", "exit_ticket", "homework_extension",
    ]

    @Test func structuredOverTheResponsesAPISendsAStrictSchemaAndThePlanPassesTheCheck() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run([
            "generate", "--grade", "4", "--topic", "Fractions on a number line", "--minutes", "45", "--structured",
            "--then", "/shorten 30",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // stdout is the rendered 30-minute plan: the tool's headings and times, the model's items.
        #expect(
            result.stdout.hasPrefix(
                "Learning Objective\n- Plan #2 — grade band 3–5: Students predict what they will learn about Fractions on a number line in learning objective, step 1"
            ))
        #expect(result.stdout.contains("\nWarm-Up (0–5 min)\n- Students explain in their own words Fractions on a number line in warm up, step 1.\n"))
        #expect(result.stdout.contains("\nExit Ticket (27–30 min)\n1. What is one idea"))
        #expect(!result.stdout.contains("{") && !result.stdout.contains("\"exit_ticket\""))

        let requests = try await server.requests()
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.path == "/v1/responses")
            let format = request.body?["text"]?["format"]
            #expect(format?["type"] == .string("json_schema") && format?["strict"] == .bool(true))
            #expect(format?["name"] == .string("lesson_plan"))
            let schema = format?["schema"]
            #expect(schema?["required"]?.arrayValue?.compactMap(\.stringValue) == Self.defaultKeys)
            #expect(schema?["properties"]?["exit_ticket"]?["minItems"] == .number(3))
            #expect(schema?["properties"]?["exit_ticket"]?["maxItems"] == .number(3))
            // OpenAI's strict mode gets no string lengths.
            #expect(schema?["properties"]?["exit_ticket"]?["items"]?["minLength"] == nil)
            #expect(request.instructions?.contains("Reply with the JSON object only.") == true)
        }
        // The prompt names the parts with the tool's minutes; the refinement carries the current plan's sections.
        let first = try #require(requests.first?.inputText)
        #expect(first.contains("- \"direct_instruction\": Direct Instruction (10 min), 1 to 4 items"))
        #expect(!first.contains("Output format (exact headings"))
        let second = try #require(requests.last?.inputText)
        #expect(second.contains("in 30 minutes instead of 45"))
        #expect(second.contains("Warm-Up (0–5 min)\n- Plan #1") || second.contains("Warm-Up (0–5 min)\n- Students explain in their own words"))
        #expect(second.contains("- \"direct_instruction\": Direct Instruction (7 min)"))

        // The transcript keeps the rendered plans, checked and passing, as versions 1 and 2.
        let ends = QualityEndToEndTests.endedTurns(try binary.transcriptLines())
        #expect(ends.map { $0["version"] as? Int } == [1, 2])
        for (end, minutes) in zip(ends, [45, 30]) {
            #expect(end["status"] as? String == "completed")
            let check = end["check"] as? [String: Any]
            #expect(check?["passed"] as? Bool == true, "\(String(describing: check))")
            #expect(check?["paced_minutes"] as? Int == minutes)
            #expect((end["output"] as? String)?.hasPrefix("Learning Objective\n- Plan #") == true)
        }
        #expect((ends.last?["output"] as? String)?.trimmingCharacters(in: .newlines) == result.stdout.trimmingCharacters(in: .newlines))
    }

    @Test func localIsStructuredOverChatCompletionsWithLengthsForEveryFramework() async throws {
        let server = try await FakeOpenAIServer()
        var binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        binary.environment["LESSONPLAN_LOCAL_PORT"] = String(server.port)
        defer { binary.removeHome() }
        for framework in ["5e", "ubd"] {
            let result = try await binary.run([
                "generate", "--local", "--grade", "K", "--topic", "Shadows", "--minutes", "40", "--framework", framework,
            ])
            #expect(result.status == 0, "\(framework): \(result.stderr)")
            #expect(!result.stderr.contains("✗"), "\(framework): \(result.stderr)")
        }
        let requests = try await server.requests()
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.path == "/v1/chat/completions")
            let format = request.body?["response_format"]
            #expect(format?["type"] == .string("json_schema"))
            let schema = format?["json_schema"]?["schema"]
            #expect(schema?["additionalProperties"] == .bool(false))
            let first = schema?["properties"]?.objectValue?.values.first
            #expect(first?["items"]?["minLength"] == .number(Double(StructuredPlan.shortestItem)))
            #expect(first?["items"]?["maxLength"] == .number(Double(StructuredPlan.longestItem)))
            // The bounded answer: a content part of at most 3 items, and the prompt says so.
            let content = (schema?["properties"]?.objectValue.map { Array($0.values) } ?? []).filter { $0["minItems"]?.intValue == 1 }
            #expect(!content.isEmpty && content.allSatisfy { $0["maxItems"]?.intValue == StructuredPlan.mostBoundedItems })
            let prompt = request.body?["messages"]?.arrayValue?.compactMap { $0["content"]?.stringValue }.joined() ?? ""
            #expect(prompt.contains("1 to \(StructuredPlan.mostBoundedItems) items") && !prompt.contains("1 to 4 items"))
        }
        #expect(
            requests.last?.body?["response_format"]?["json_schema"]?["schema"]?["required"]?.arrayValue?
                .compactMap(\.stringValue) == ["desired_results", "evidence", "learning_plan"])
        let ends = QualityEndToEndTests.endedTurns(try binary.transcriptLines())
        #expect(ends.count == 1 || ends.count == 2)
    }

    /// A small model's answer that does not fit is asked for once more without the teacher typing anything:
    /// the first run of the offline model ends with a plan, not a failure.
    @Test func anAnswerThatDoesNotFitIsAskedForOnceMoreAutomatically() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text(#"{"learning_objective": ["Tides"]}"#), .plan])
        let result = try await binary.run(["generate", "--grade", "6-8", "--topic", "Tides", "--structured"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("asking once more, automatically"))
        #expect(result.stdout.contains("Exit Ticket"))
        let lines = try binary.transcriptLines()
        let ends = QualityEndToEndTests.endedTurns(lines)
        #expect(ends.map { $0["status"] as? String } == ["failed", "completed"])
        #expect(QualityEndToEndTests.startedTurns(lines).last?["retry_of"] as? Int == 1)
        #expect(try await server.requests().count == 2)
    }

    /// An answer that does not fit is asked for once more automatically; when that fails too, /retry asks again.
    @Test func anAnswerThatIsNotThePlansJSONFailsInOneSentenceAndRetryAsksAgain() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let prose = "Here is a lesson plan about tides. Warm-Up: look at the sea."
        try await server.script([.text(prose), .text(#"{"learning_objective": ["Tides"]}"#), .plan])
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--structured"],
            input: "/retry\n/check\n/quit\n")
        // The first answer and its automatic re-ask failed before /retry made the plan: the exit status says so.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "The model's answer is not the JSON object of the plan's parts that was asked for; /retry asks again (or start with --free-text for a plan the model structures itself)."
            ))
        #expect(result.stderr.contains("The model's answer has nothing for “Materials”; /retry asks again"))
        #expect(result.stdout.contains("the answer did not fit the plan's parts; asking once more, automatically"))
        #expect(!result.stdout.contains(prose))
        #expect(result.stdout.contains("✓ The structure passes the check."))
        let requests = try await server.requests()
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.body?["text"]?["format"]?["type"] == .string("json_schema") })
        // The failed answers stay in the transcript as they came, as failed turns; the third is version 1.
        let ends = QualityEndToEndTests.endedTurns(try binary.transcriptLines())
        #expect(ends.map { $0["status"] as? String } == ["failed", "failed", "completed"])
        #expect(ends.first?["output"] as? String == prose)
        #expect(ends.last?["version"] as? Int == 1)
    }
}
