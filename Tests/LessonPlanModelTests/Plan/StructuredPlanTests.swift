import CoreTestSupport
import Foundation
import Testing

@testable import LessonPlanCore
@testable import LessonPlanModel

@Suite struct StructuredPlanTests {
    static let frameworks = PromptLibrary.builtIn.frameworkNames

    static func layout(_ framework: String, minutes: Int = 45, grade: GradeBand = .threeTo5) throws -> StructuredPlan {
        try StructuredPlan(
            framework: try PromptLibrary.builtIn.framework(framework),
            inputs: LessonInputs(grade: grade, topic: "Fractions on a number line", minutes: minutes))
    }

    @Test(arguments: frameworks)
    func pacingAddsUpToEveryLessonLengthWithTheWarmUpFixed(framework name: String) throws {
        for minutes in LessonInputs.minutesRange {
            let plan = try Self.layout(name, minutes: minutes)
            let timed = plan.parts.filter { $0.start != nil }
            #expect(timed.compactMap(\.end).last == minutes, "\(name), \(minutes) min")
            // Timed parts follow each other with no gap or overlap, each at least a minute long.
            var clock = 0
            for part in timed {
                #expect(part.start == clock && (part.end ?? 0) > clock, "\(name), \(minutes) min: \(part.heading)")
                clock = part.end ?? clock
            }
            if let warmUp = plan.framework.warmUpHeading, let fixed = plan.framework.warmUpMinutes {
                let part = try #require(plan.parts.first { $0.heading == warmUp })
                #expect(part.start == 0 && part.end == fixed, "\(name), \(minutes) min")
            }
            for part in plan.parts
            where plan.framework.untimedHeadings.contains(part.heading)
                || plan.framework.unpacedHeadings.contains(part.heading)
            {
                #expect(part.start == nil, "\(name): \(part.heading) takes no class time")
            }
        }
    }

    /// A unit's lesson states the objective its overview gave it: the tool writes that part, the schema and the
    /// prompt leave it out, and an answer that fills it anyway does not replace it.
    @Test func aGivenObjectiveIsWrittenByTheToolNotAsked() throws {
        let layout = try Self.layout("default")
        let plan = layout.giving(objective: "Students will place unit fractions on a number line")
        let schema = try JSONValue.parse(Data(plan.schema().utf8))
        #expect(schema["properties"]?["learning_objective"] == nil)
        #expect(schema["required"]?.arrayValue?.contains(.string("learning_objective")) == false)
        #expect(schema["properties"]?["materials"] != nil)
        #expect(!plan.promptSections.contains("learning_objective"))
        #expect(layout.promptSections.contains("learning_objective"))

        let text = try plan.render(
            json: StructuredPlanFixtures.answer(
                layout,
                item: { part, n in
                    part.key == "learning_objective" ? "Students will understand fractions." : "Students mark point \(n) on a number line."
                }))
        let document = PlanDocument(parsing: text, framework: plan.framework)
        #expect(
            document.section(plan.framework.objectiveHeading ?? "")?.body.joined(separator: "\n").contains(
                "Students will place unit fractions on a number line.") == true, "\(text)")
        #expect(!text.contains("understand fractions"))
        // Without an objective, or in a framework with no objective heading, the layout is unchanged.
        #expect(layout.giving(objective: "  ") == layout)
    }

    @Test func theDefaultLessonIsSharedByWeight() throws {
        let plan = try Self.layout("default", minutes: 45)
        let times = plan.parts.map { part in part.start.map { "\($0)–\(part.end ?? 0)" } ?? "-" }
        // Objective, materials, differentiation and homework take no class time; CFU and exit ticket half a share.
        #expect(times == ["-", "-", "0–5", "5–15", "15–25", "25–35", "-", "35–40", "40–45", "-"])
        #expect(
            plan.parts.map(\.key) == [
                "learning_objective", "materials", "warm_up", "direct_instruction", "guided_practice",
                "independent_practice", "differentiation", "check_for_understanding", "exit_ticket", "homework_extension",
            ])
    }

    @Test(arguments: frameworks)
    func aRenderedPlanPassesTheCheckUnderItsFrameworksHeadings(framework name: String) throws {
        for minutes in [10, 11, 17, 30, 45, 61, 90, 180] {
            for grade in GradeBand.allCases {
                let plan = try Self.layout(name, minutes: minutes, grade: grade)
                let text = try plan.render(json: StructuredPlanFixtures.answer(plan))
                let report = plan.framework.check(text, lessonMinutes: minutes)
                #expect(report.passed, "\(name), \(minutes) min: \(report.problems)\n\(text)")
                #expect(report.pacedMinutes == minutes)
                let document = plan.framework.document(of: text)
                #expect(document.sections.map(\.heading) == plan.framework.headings)
            }
        }
    }

    @Test func countsAreTheFrameworksCounts() throws {
        let plan = try Self.layout("default")
        let text = try plan.render(json: StructuredPlanFixtures.answer(plan, extra: 5))
        let document = plan.framework.document(of: text)
        let exit = try #require(document.section("Exit Ticket"))
        let cfu = try #require(document.section("Check for Understanding"))
        #expect(PlanChecker.countItems(exit.body) == 3)
        #expect(PlanChecker.countItems(cfu.body) == 4)
        #expect(text.contains("Warm-Up (0–5 min)\n- Students work on step 1"))
        #expect(text.contains("Exit Ticket (40–45 min)\n1. What does step 1 show"))
        #expect(text.hasPrefix("Learning Objective\n- "))
    }

    /// Whatever a model puts in an item (line breaks, its own numbering, fences, a heading's words,
    /// times, a trailing colon), the plan still reads as the tool laid it out.
    @Test(arguments: frameworks)
    func awkwardItemsCannotBreakTheStructure(framework name: String) throws {
        let awkward = [
            "1. Exit Ticket", "Exit Ticket", "Warm-Up (5 min)", "## Direct Instruction (20 min)", "```\ncode\n```",
            "List the steps:", "  - 3) spend 10 minutes on this\nthen 5 min more", "Check for Understanding:",
            "0–45 min: the whole lesson", "Q1: What is a half", "**Homework / Extension (optional)**", "a)", "B. Materials",
        ]
        var generator = SeededGenerator(seed: 15)
        for round in 0..<40 {
            let plan = try Self.layout(name, minutes: [20, 45, 75][round % 3])
            let json = StructuredPlanFixtures.answer(plan, extra: round % 3) { part, n in
                let pick = awkward[Int(generator.next() % UInt64(awkward.count))]
                // Counted parts still need items that are not only a label; some are only a heading's name.
                if part.role == .content || n == 2 { return pick }
                return n == 1 ? plan.framework.headings[round % plan.framework.headings.count] : "\(pick) question \(n)?"
            }
            let text = try plan.render(json: json)
            let report = plan.framework.check(text, lessonMinutes: plan.inputs.minutes)
            #expect(report.passed, "\(name) round \(round): \(report.problems)\n\(text)")
            #expect(plan.framework.document(of: text).sections.map(\.heading) == plan.framework.headings)
        }
    }

    @Test func badAnswersAreRefusedInOneSentence() throws {
        let plan = try Self.layout("default")
        let good = StructuredPlanFixtures.answer(plan)
        let withoutExit = good.replacing(/"exit_ticket":\[[^\]]*\],/, with: "")
        let twoPrompts = good.replacing(
            /"exit_ticket":\[[^\]]*\]/, with: #""exit_ticket":["What is a half?","What is a third?"]"#)
        let labelled = good.replacing(
            /"exit_ticket":\[[^\]]*\]/, with: #""exit_ticket":["Answer: one half","What is a third?","Why?"]"#)
        let cases: [(String, StructuredPlanError)] = [
            ("", .empty),
            ("Here is your lesson plan: Warm-Up …", .notJSON),
            ("[1, 2, 3]", .notJSON),
            ("{\"learning_objective\": [\"Students", .notJSON),
            (withoutExit, .missingPart(heading: "Exit Ticket")),
            (twoPrompts, .tooFew(heading: "Exit Ticket", found: 2, needed: 3)),
            (labelled, .tooFew(heading: "Exit Ticket", found: 2, needed: 3)),
        ]
        for (answer, expected) in cases {
            #expect(throws: expected) { try plan.render(json: answer) }
            let sentence = try #require(expected.errorDescription)
            #expect(!sentence.contains("\n") && sentence.hasSuffix(".") && sentence.contains("/retry"))
        }
        #expect(StructuredPlanError.cutShort.errorDescription?.contains("--max-output-tokens") == true)
        // A fence or a sentence around the JSON, a lone string for a list, and too many items are forgiven.
        let relaxed = "```json\n" + good.replacing(#""materials":["#, with: #""materials":"Fraction strips", "unused":["#) + "\n```"
        let text = try plan.render(json: relaxed)
        #expect(text.contains("Materials\n- Fraction strips.\n"))
        #expect(plan.framework.check(text, lessonMinutes: 45).passed)
    }

    @Test func theSchemaListsThePartsInOrderWithTheirCounts() throws {
        let plan = try Self.layout("hunter")
        let strict = try #require(JSONValue.parse(plan.schema()))
        #expect(strict["required"]?.arrayValue?.compactMap(\.stringValue) == plan.parts.map(\.key))
        #expect(strict["additionalProperties"] == .bool(false))
        let closure = try #require(strict["properties"]?["closure"])
        #expect(closure["minItems"] == .number(3) && closure["maxItems"] == .number(3))
        let cfu = try #require(strict["properties"]?["checking_for_understanding"])
        #expect(cfu["minItems"] == .number(3) && cfu["maxItems"] == .number(4))
        #expect(closure["items"]?["minLength"] == nil)
        let bounded = StructuredPlan(framework: plan.framework, inputs: plan.inputs, size: .bounded)
        let local = try #require(JSONValue.parse(bounded.schema()))
        #expect(local["properties"]?["closure"]?["items"]?["minLength"] == .number(Double(StructuredPlan.shortestItem)))
        // Members in the plan's order in the text itself: a model writes them in that order.
        let serialized = bounded.schema()
        let positions = plan.parts.compactMap { serialized.range(of: "\"\($0.key)\":{")?.lowerBound }
        #expect(positions.count == plan.parts.count && positions == positions.sorted())
    }

    /// For llama-server the schema bounds the whole answer (fewer, shorter items) and the prompt states the same
    /// counts; nothing forces a question's form (a cut-off sentence ending in "?" would pass the check).
    @Test func aBoundedSchemaLimitsItemsAndLengthsAndThePromptAgrees() throws {
        let counted = try Self.layout("default")
        let plan = StructuredPlan(framework: counted.framework, inputs: counted.inputs, size: .bounded)
        let schema = try #require(JSONValue.parse(plan.schema()))
        let materials = try #require(schema["properties"]?["materials"])
        #expect(materials["maxItems"] == .number(Double(StructuredPlan.mostBoundedItems)))
        #expect(materials["items"]?["maxLength"] == .number(Double(StructuredPlan.longestItem)))
        #expect(schema["properties"]?["exit_ticket"]?["maxItems"] == .number(3), "the exit ticket keeps its count")
        #expect(plan.promptSections.contains(#"- "materials": Materials, 1 to 3 items"#))
        #expect(counted.promptSections.contains(#"- "materials": Materials, 1 to 4 items"#))
        #expect(try #require(JSONValue.parse(counted.schema()))["properties"]?["materials"]?["maxItems"] == .number(4))

        let cfu = try #require(schema["properties"]?["check_for_understanding"])
        #expect(cfu["items"]?["maxLength"] == .number(Double(StructuredPlan.longestItem)) && cfu["items"]?["pattern"] == nil)
        #expect(cfu["maxItems"] == .number(4), "the questions keep their count")
        #expect(!counted.schema().contains("maxLength"), "OpenAI's strict mode gets no string lengths")
    }

    /// The offline 1.5B gets its own bounds (issue #40): sentences up to ``StructuredPlan/longestSentence``
    /// characters, which the tiny model's 100 cut in two, and exactly one objective, where it wrote three.
    @Test func theOfflinePlanWriterGetsWholeSentencesAndOneObjective() throws {
        #expect(StructuredPlan.Size.local(model: "Qwen2.5-Coder-1.5B-Instruct") == .sentences)
        #expect(StructuredPlan.Size.local(model: "SmolLM2-135M-Instruct") == .bounded)
        let counted = try Self.layout("default")
        let plan = StructuredPlan(framework: counted.framework, inputs: counted.inputs, size: .sentences)
        let schema = try #require(JSONValue.parse(plan.schema()))
        let objective = try #require(schema["properties"]?["learning_objective"])
        #expect(objective["minItems"] == .number(1) && objective["maxItems"] == .number(1))
        #expect(objective["items"]?["maxLength"] == .number(Double(StructuredPlan.longestSentence)))
        #expect(schema["properties"]?["materials"]?["maxItems"] == .number(Double(StructuredPlan.mostBoundedItems)))
        #expect(schema["properties"]?["exit_ticket"]?["maxItems"] == .number(3))
        #expect(plan.promptSections.contains(#"- "learning_objective": Learning Objective, exactly 1 item"#))
        let bounded = StructuredPlan(framework: counted.framework, inputs: counted.inputs, size: .bounded)
        #expect(try #require(JSONValue.parse(bounded.schema()))["properties"]?["learning_objective"]?["maxItems"] == .number(3))
    }

    /// llama-server closes a string at its length bound wherever the model was; the 1.5B then ends it with a full
    /// stop mid-sentence. Such an item is cut back to its last whole sentence; one under the bound is kept whole.
    @Test func anItemCutAtTheLengthBoundIsCutBackToItsLastSentence() throws {
        let bound = StructuredPlan.longestSentence
        let whole = "Students place 1/4, 1/2 and 3/4 on a number line, e.g. with fraction strips, and explain each choice."
        let cut = whole + " " + String(repeating: "Then they compare their lines with a partner and ", count: 10)
        let atBound = String(cut.prefix(bound - 1)) + "."
        #expect(StructuredPlan.uncut(atBound, bound: bound) == whole)
        #expect(StructuredPlan.uncut(whole, bound: bound) == whole, "an item under the bound is kept whole")
        #expect(StructuredPlan.uncut(atBound, bound: nil) == atBound, "a schema with no bound cuts nothing")
        let oneSentence = String(String(repeating: "long words ", count: 40).prefix(bound - 1)) + "."
        #expect(StructuredPlan.uncut(oneSentence, bound: bound) == oneSentence, "with no earlier sentence end it stays")

        let counted = try Self.layout("default")
        let plan = StructuredPlan(framework: counted.framework, inputs: counted.inputs, size: .sentences)
        let text = try plan.render(
            json: StructuredPlanFixtures.answer(plan) { part, n in part.key == "materials" ? atBound : "What does step \(n) show?" })
        #expect(text.contains("- \(whole)\n") && !text.contains("compare their lines"))
    }

    @Test func thePromptNamesEveryPartWithItsMinutes() throws {
        let plan = try Self.layout("default", minutes: 30)
        let sections = plan.promptSections
        #expect(sections.split(separator: "\n").count == plan.parts.count)
        #expect(sections.contains(#"- "warm_up": Warm-Up (5 min), 1 to 4 items"#))
        #expect(sections.contains(#"- "exit_ticket": Exit Ticket (3 min), exactly 3 prompts"#))
        #expect(sections.contains(#"- "materials": Materials, 1 to 4"#))
        let input = try PromptLibrary.builtIn.render(
            "structured", values: ["sections": sections, "topic": "Tides", "grade": "6–8"], framework: "default")
        #expect(input.contains(sections) && input.contains("Tides") && !input.contains("{{"))
    }

    @Test func aRequestCarriesTheSchemaWhereTheWireFormatWantsIt() throws {
        let schema = ResponseSchema(name: "lesson_plan", json: #"{"type":"object"}"#)
        for api in APIFlavor.allCases {
            let settings = ModelSettings(
                baseURL: try #require(URL(string: "http://127.0.0.1:9/v1")), apiKey: "sk-test-123456789", model: "m", api: api)
            let client = ModelClient(transport: NoTransport(), settings: settings)
            let body = try #require(
                JSONValue.parse(String(decoding: client.request(instructions: "i", input: "x", schema: schema).body, as: UTF8.self)))
            let format = api == .chat ? body["response_format"]?["json_schema"] : body["text"]?["format"]
            #expect(format?["name"] == .string("lesson_plan") && format?["strict"] == .bool(true))
            #expect(format?["schema"]?["type"] == .string("object"))
            #expect((api == .chat ? body["response_format"] : format)?["type"] == .string("json_schema"))
            let plain = try #require(JSONValue.parse(String(decoding: client.request(instructions: "i", input: "x").body, as: UTF8.self)))
            #expect(plain["text"] == nil && plain["response_format"] == nil)
        }
    }
}

/// A transport for building requests only.
private struct NoTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse { throw CancellationError() }
}
