import Foundation
import TestSupport
import Testing

/// The plan check, automatic repair, reading level, pacing, frameworks, standards and handouts, end to end.
@Suite(.serialized) struct QualityEndToEndTests {
    /// Headings in order but pacing 5 min over and an exit ticket of one prompt: two problems.
    static let overPaced = """
        Learning Objective
        Students explain why the moon causes tides.
        Materials
        - Globe
        Warm-Up (5 min)
        - Quick-write about the beach.
        Direct Instruction (15 min)
        - Model the moon's pull.
        Guided Practice (10 min)
        - Pairs label a diagram.
        Independent Practice (10 min)
        - Students sketch high and low tide.
        Differentiation
        - Sentence frames.
        Check for Understanding (5 min)
        1. What pulls the ocean?
        2. Why are there two high tides?
        3. When is low tide?
        Exit Ticket (5 min)
        1. Draw a high tide.
        Homework / Extension (optional)
        - Check a tide table.
        """

    /// Far worse than `overPaced`: most headings are gone.
    static let mostlyMissing = """
        Learning Objective
        Students explain tides.
        Exit Ticket (45 min)
        1. Why?
        """

    /// A plan that passes the check but whose student text is written far above grades 3–5.
    static let hardPlan = """
        Learning Objective
        Students will analyze gravitational interactions that generate tidal phenomena.
        Materials
        - Globe and flashlight
        Warm-Up (5 min)
        - Quick-write about observations of coastal environments.
        Direct Instruction (15 min)
        - Demonstrate differential gravitational attraction with a labeled diagram.
        Guided Practice (10 min)
        - Collaboratively, students investigate the relationship between lunar positioning and oceanic displacement, substantiating interpretations with quantitative evidence.
        Independent Practice (5 min)
        - Individually, students evaluate contradictory explanations of tidal periodicity and articulate comprehensive justifications.
        Differentiation
        - Vocabulary cards with illustrations.
        Check for Understanding (5 min)
        1. Which astronomical relationships determine the magnitude of spring tides compared with neap tides?
        2. How does differential gravitational attraction produce simultaneous bulges on opposite hemispheres?
        3. Why do geographical characteristics of coastlines modify predicted tidal amplitudes considerably?
        Exit Ticket (5 min)
        1. Summarize the gravitational mechanism responsible for semidiurnal tidal cycles.
        2. Identify one misconception regarding tidal generation that you previously held.
        3. Evaluate which explanation demonstrated the strongest correspondence with observations.
        Homework / Extension (optional)
        - Consult a tide table.
        """

    /// A 5E plan without Elaborate whose Evaluate asks two questions.
    static let brokenFiveE = """
        Engage (5 min)
        Drop a raisin into soda.
        Explore (20 min)
        Groups test raisins and rice.
        Explain (10 min)
        Connect bubbles to density.
        Evaluate (10 min)
        1. What makes the raisin rise?
        2. Why does it sink again?
        """

    static func endedTurns(_ lines: [[String: Any]]) -> [[String: Any]] {
        lines.filter { $0["type"] as? String == "turn_ended" }
    }

    static func startedTurns(_ lines: [[String: Any]]) -> [[String: Any]] {
        lines.filter { $0["type"] as? String == "turn_started" }
    }

    @Test func aBrokenDraftIsRepairedOnceAndUndoGoesWhereTheDraftWould() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text(Self.overPaced), .plan, .text(Self.mostlyMissing), .plan])
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45"],
            input: "/check\n/shorten 30\n/history\n/undo\n/undo\n/quit\n")
        // The second /undo has nothing to undo: the script goes on, and its exit status says so.
        #expect(result.status == 1, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("── v1 · ") && out.contains("✗ structure: 2 problems"))
        #expect(out.contains("   ✗ Pacing adds up to 50 min, not 45.\n   ✗ Exit Ticket has 1 prompt; it needs exactly 3.\n"))
        #expect(out.contains("── repairing v1 once: asking for the same plan without its 2 problems…"))
        #expect(out.contains("── v2 · ") && out.contains("· ✓ structure · ✓ content\n   The repaired plan checks better, so it replaces v1."))
        // /check reads the repaired plan, the current one.
        #expect(out.contains("── plan check of v2 · default framework · 45-minute lesson"))
        #expect(out.contains("Pacing: the timed sections add up to 45 of 45 minutes."))
        #expect(out.contains("✓ The structure passes the check."))
        // The /shorten draft is repaired too, and stands where the draft stood.
        #expect(out.contains("→ v4  3–5 · 30 min  (auto repair), replacing v3 (from v2)"))
        #expect(out.contains("  v3  3–5 · 30 min  /shorten 30 (from v2)"))
        #expect(out.contains("Back to v2 (auto repair); /show prints it."))
        #expect(result.stderr.contains("Nothing to undo: v2 is the first plan (it replaced its draft v1, which /show 1 prints)."))

        let requests = try await server.requests()
        #expect(requests.count == 4)
        let repairPrompt = try #require(requests[1].inputText)
        #expect(
            repairPrompt.contains(
                "A check found these problems:\n- Pacing adds up to 50 min, not 45.\n- Exit Ticket has 1 prompt; it needs exactly 3."))
        #expect(repairPrompt.contains("Students explain why the moon causes tides."))

        let lines = try binary.transcriptLines()
        let starts = Self.startedTurns(lines)
        #expect(starts.map { $0["command"] as? String } == ["/generate", "(auto repair)", "/shorten 30", "(auto repair)"])
        #expect(starts.map { $0["template"] as? String } == ["generate", "repair", "shorten", "repair"])
        #expect(starts.map { $0["follows"] as? Int } == [nil, 1, nil, 3])
        #expect(starts[1]["base_version"] as? Int == 1)
        let ends = Self.endedTurns(lines)
        #expect(ends.map { $0["version"] as? Int } == [1, 2, 3, 4])
        #expect(ends.map { $0["kept"] as? Bool } == [nil, true, nil, true])
        let draftCheck = try #require(ends[0]["check"] as? [String: Any])
        #expect(draftCheck["passed"] as? Bool == false && draftCheck["paced_minutes"] as? Int == 50)
        let problems = try #require(draftCheck["problems"] as? [[String: Any]])
        #expect(problems.map { $0["kind"] as? String } == ["pacing_total", "exit_ticket_prompts"])
        #expect(problems[0]["found"] as? Int == 50 && problems[0]["expected"] as? Int == 45)
        #expect((ends[1]["check"] as? [String: Any])?["passed"] as? Bool == true)
        #expect(lines.last?["type"] as? String == "undo" && lines.last?["from"] as? Int == 4 && lines.last?["to"] as? Int == 2)
    }

    @Test func aRepairThatChecksWorseLeavesTheDraftCurrent() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text(Self.overPaced), .text(Self.mostlyMissing)])
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45"], input: "/history\n/show\n/show repair\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        // The repair that was not kept is not printed: one line says it was tried and why, and /show repair shows it.
        let beforeShow = try #require(result.stdout.components(separatedBy: "── v1 · /generate").first)
        #expect(!beforeShow.contains("Students explain tides."), "\(beforeShow)")
        let footer = try #require(beforeShow.split(separator: "\n").first { $0.hasPrefix("── not kept, still v1 · ") })
        #expect(footer.hasSuffix(" · The repaired plan checks no better than v1, so v1 stays; /show repair shows it."))
        #expect(result.stdout.contains("── (auto repair) of v1 · turn 2 · not kept · ✗ structure: "))
        let shown = try #require(result.stdout.components(separatedBy: "── (auto repair) of v1 · turn 2 · not kept").last)
        #expect(shown.contains("\nLearning Objective\nStudents explain tides.\nExit Ticket (45 min)"))
        #expect(result.stdout.contains("→ v1  3–5 · 45 min  /generate\n"))
        #expect(!result.stdout.contains("v2"))
        #expect(result.stdout.contains("── v1 · /generate · 3–5 · 45 min\nLearning Objective\nStudents explain why the moon causes tides."))
        #expect(try await server.requests().count == 2)
        let ends = Self.endedTurns(try binary.transcriptLines())
        #expect(ends.count == 2)
        #expect(ends[1]["status"] as? String == "completed" && ends[1]["kept"] as? Bool == false)
        #expect(ends[1]["version"] == nil)
        #expect(ends[1]["output"] as? String == Self.mostlyMissing)
        #expect((ends[1]["check"] as? [String: Any])?["passed"] as? Bool == false)

        // Replay shows both, the rejected repair as not kept.
        let replay = try await binary.run(["replay", String((try binary.transcriptLines().first?["id"] as? String ?? "").prefix(8)), "--plain"])
        #expect(replay.stdout.contains("(auto repair)") && replay.stdout.contains("completed, not kept (from v1)"))
        #expect(replay.stdout.contains("✗ structure: 2 problems"))
    }

    /// `/repair off` is saved with the session (a `setting` line): `resume` and `replay --rerun` honour it.
    @Test func repairOffIsSavedWithTheSessionAndResumeAndRerunKeepIt() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .text(Self.overPaced)])
        let first = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "tides"], input: "/repair off\n/quit\n")
        #expect(first.status == 0, "\(first.stderr)")
        let settings = try binary.transcriptLines().filter { $0["type"] as? String == "setting" }
        #expect(settings.count == 1 && settings.first?["repair"] as? Bool == false)
        let resumed = try await binary.run(["resume", "tides"], input: "/shorten 30\n/quit\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("✗ structure:") && !resumed.stdout.contains("── repairing"), "\(resumed.stdout)")
        #expect(try await server.requests().count == 2)

        try await server.reset()
        try await server.script([.plan, .text(Self.overPaced)])
        let rerun = try await binary.run(["replay", "tides", "--rerun"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!rerun.stderr.contains("── repairing"), "\(rerun.stderr)")
        #expect(try await server.requests().count == 2)
    }

    @Test func noRepairLeavesTheDraftAndRepairAsksOnRequest() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text(Self.overPaced)])
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--no-repair"],
            input: "/repair\n/repair\n/undo\n/repair off\n/repair on\n/repair sometimes\n/quit\n")
        // `/repair sometimes` is rejected: the exit status says a line could not run.
        #expect(result.status == 1, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("✗ structure: 2 problems"))
        // The typed /repair is an ordinary step: kept because it checks better, and undone to v1.
        #expect(out.contains("── repairing v1 once"))
        #expect(out.contains("── v2 · ") && out.contains("The repaired plan checks better, so it replaces v1."))
        #expect(out.contains("v2 passes the plan check; there is nothing to repair."))
        #expect(out.contains("Back to v1 (/generate)"))
        #expect(out.contains("Automatic repair is off") && out.contains("Automatic repair is on"))
        #expect(result.stderr.contains("“sometimes” is not an option of /repair"))
        let requests = try await server.requests()
        #expect(requests.count == 2)
        let starts = Self.startedTurns(try binary.transcriptLines())
        #expect(starts[1]["command"] as? String == "/repair" && starts[1]["follows"] == nil)

        // One-shot honours --no-repair too, and the check is reported on stderr.
        try await server.reset()
        try await server.script([.text(Self.overPaced)])
        let oneShot = try await binary.run(["generate", "--grade", "4", "--topic", "Tides", "--no-repair"])
        #expect(oneShot.status == 0)
        #expect(oneShot.stdout.hasPrefix("Learning Objective\nStudents explain why the moon causes tides."))
        #expect(oneShot.stderr.contains("✗ Pacing adds up to 50 min, not 45."))
        #expect(try await server.requests().count == 1)
    }

    @Test func regradeMeasuresTheReadingLevelAndRetriesOnce() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .text(Self.hardPlan)])
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45"], input: "/regrade 3-5\n/level\n/history\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("── v2 reads at grade "))
        #expect(out.contains("; grades 3–5 expect 2–5.5. Asking once more…"))
        #expect(out.contains("── v3 · ") && out.contains(", closer to 2–5.5, so it replaces v2."))
        let summary = try #require(out.components(separatedBy: "Reading level of what students read (Flesch–Kincaid):\n").last)
        let before = try #require(summary.split(separator: "\n").first)
        let after = try #require(summary.split(separator: "\n").dropFirst().first)
        #expect(before.hasPrefix("   before: grade ") && before.hasSuffix(" (6–8 expects 6–10) ✓"))
        #expect(after.hasPrefix("   after:  grade ") && after.hasSuffix(" (3–5 expects 2–5.5) ✓"))
        #expect(out.contains("✓ within the 2–5.5 expected for grades 3–5."))
        #expect(out.contains("→ v3  3–5 · 45 min  (reading level retry), replacing v2 (from v1)"))

        let requests = try await server.requests()
        #expect(requests.count == 3)
        let retry = try #require(requests[2].inputText)
        #expect(retry.contains("measures Flesch–Kincaid grade "))
        #expect(retry.contains("for grades 3–5 it should measure grade 2–5.5."))
        #expect(retry.contains("Collaboratively, students investigate"))
        let lines = try binary.transcriptLines()
        let starts = Self.startedTurns(lines)
        #expect(starts[2]["command"] as? String == "(reading level retry)" && starts[2]["template"] as? String == "level")
        #expect(starts[2]["follows"] as? Int == 2)
        let ends = Self.endedTurns(lines)
        let hard = try #require(ends[1]["reading_level"] as? [String: Any])
        #expect(hard["in_range"] as? Bool == false && hard["band"] as? String == "3–5")
        #expect(hard["expected_low"] as? Double == 2 && hard["expected_high"] as? Double == 5.5)
        #expect((hard["grade"] as? Double ?? 0) > 10)
        #expect((ends[2]["reading_level"] as? [String: Any])?["in_range"] as? Bool == true)
        #expect(ends[2]["kept"] as? Bool == true)
    }

    @Test func pacingDrawsOneBarPerSection() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["--grade", "4", "--topic", "Tides", "--minutes", "40"], input: "/pacing\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("── pacing of v1 · 40-minute lesson"))
        let rows = out.split(separator: "\n").filter { $0.contains("█") }
        #expect(rows.count == 6)
        #expect(rows.first?.hasPrefix("Warm-Up (5 min)") == true && rows.first?.contains(" 0–5 ") == true)
        #expect(rows.first?.contains("5 min  █") == true)
        #expect(rows.last?.hasPrefix("Exit Ticket") == true && rows.last?.contains("37–40") == true)
        // The lesson-end mark closes every row of a plan that fills the lesson exactly.
        #expect(rows.last?.hasSuffix("█│") == true)
        #expect(out.contains("▲ lesson ends at 40 min") || out.contains("lesson ends at 40 min ▲"))
        // Each bar starts where the one before ended: later rows have more dots in front.
        let leads = rows.map { $0.split(separator: "█", maxSplits: 1)[0].filter { $0 == "·" }.count }
        #expect(leads == leads.sorted() && leads.first == 0)
        #expect(out.contains("The sections add up to the lesson's 40 minutes."))
        // Prose under the chart wraps between words to the terminal's width.
        let chart = out.components(separatedBy: "── pacing of v1").last ?? ""
        #expect(chart.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(
            out.replacingOccurrences(of: "\n", with: " ").contains(
                "No time given: Learning Objective, Materials, Differentiation, Homework / Extension (optional)."))
        #expect(!out.contains("\u{1B}["))
    }

    @Test func frameworksConvertCheckAndExportWithTheirOwnHeadings() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Density", "--minutes", "45", "--name", "dense"],
            input: "/framework\n/framework 5e\n/framework 5E\n/framework montessori\n/check\n/history\n/quit\n")
        // Two lines are rejected (already 5E; no such framework).
        #expect(result.status == 1, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("→ default         Learning Objective · Materials"))
        #expect(out.contains("  5e              Engage · Explore · Explain · Elaborate · Evaluate"))
        #expect(out.contains("  hunter          Anticipatory Set · Objective and Purpose"))
        #expect(out.contains("Engage (5 min)") && out.contains("── v2 · ") && out.contains("✓ structure · ✓ content"))
        #expect(result.stderr.contains("The plan already follows the 5e framework"))
        #expect(result.stderr.contains("“montessori” is not a framework; use default, 5e, gradual-release, hunter, ubd."))
        #expect(out.contains("── plan check of v2 · 5e framework · 45-minute lesson"))
        #expect(out.contains("Headings: 5 of 5 present."))
        #expect(out.contains("Evaluate: 3 questions (at least 3)."))
        #expect(out.contains("→ v2  6–8 · 45 min · 5e  /framework 5e (from v1)"))
        let requests = try await server.requests()
        #expect(requests.count == 2)
        let convert = try #require(requests[1].inputText)
        #expect(convert.contains("written in the default lesson structure, for a 45-minute lesson on Density for grades 6–8:"))
        #expect(convert.contains("Rewrite the same lesson in the 5E model (Engage, Explore, Explain, Elaborate, Evaluate)."))
        #expect(convert.contains("1) Engage\n2) Explore\n3) Explain\n4) Elaborate\n5) Evaluate"))
        #expect(convert.contains("Under Evaluate, provide at least 3 CFU questions, numbered."))
        let starts = Self.startedTurns(try binary.transcriptLines())
        #expect(starts.map { $0["framework"] as? String } == ["default", "5e"])

        // Resumed, the plan is still 5E: the check, the export and /framework use its headings.
        let html = try await binary.run(["export", "dense", "--format", "html"])
        #expect(html.stdout.contains("<tr><td>Engage</td><td>0–5</td><td>5 min</td></tr>"))
        #expect(html.stdout.contains("<span><strong>Framework:</strong> the 5E model (Engage, Explore, Explain, Elaborate, Evaluate)</span>"))
        #expect(html.stdout.contains("<h2>Evaluate (10 min)</h2>"))
        let resumed = try await binary.run(["resume", "dense"], input: "/framework\n/check\n/undo\n/check\n/quit\n")
        #expect(resumed.stdout.contains("→ 5e "))
        #expect(resumed.stdout.contains("── plan check of v2 · 5e framework"))
        #expect(resumed.stdout.contains("── plan check of v1 · default framework"))
    }

    @Test func aFrameworkChosenAtStartChecksAgainstItsHeadings() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text(Self.brokenFiveE)])
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Density", "--minutes", "45", "--framework", "5e", "--no-repair"],
            input: "/pacing\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("   ✗ The plan has no “Elaborate” section.\n"))
        #expect(result.stdout.contains("   ✗ “Evaluate” asks 2 questions; it needs at least 3.\n"))
        #expect(result.stdout.contains("Explore    5–25  20 min"))
        let generate = try #require(try await server.requests().first?.inputText)
        #expect(generate.contains("1) Engage\n2) Explore") && !generate.contains("Learning Objective"))
        let header = try #require(try binary.transcriptLines().first)
        #expect(header["framework"] as? String == "5e")

        let unknown = try await binary.run(["generate", "--topic", "x", "--framework", "montessori"])
        #expect(unknown.status == 2 && unknown.stderr.contains("“montessori” is not a framework"))
    }

    @Test func levelStandardsAndMaterialsWorkEndToEnd() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let handout = binary.home.appending(path: "handout.md")
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "tides"],
            input: """
                /level
                /export materials md
                /standards 4-ESS2-1 Make observations of the effects of weathering; CCSS.ELA-LITERACY.RI.4.1 Refer to details
                /materials
                /export materials md \(handout.path)
                /quit

                """)
        // `/export materials md` before any /materials fails, so the script exits 1.
        #expect(result.status == 1, "\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("── reading level of v1 · measured: Guided Practice, Independent Practice, Check for Understanding, Exit Ticket\n"))
        #expect(out.contains("Flesch–Kincaid grade ") && out.contains("words of student-facing text; ✓ within the 2–5.5 expected for grades 3–5."))
        #expect(result.stderr.contains("There are no student handouts yet; type /materials"))
        // Each code went out with its published text (issue #41), and the teacher's own words after it stay beside it.
        #expect(out.contains("4-ESS2-1: Make observations and/or measurements to provide evidence of the effects of weathering"), "\(out)")
        #expect(out.contains("✓ Every standard is quoted word for word."))
        #expect(out.contains("── handouts 1 · "))
        #expect(
            out.contains(
                "✓ Checked the handouts for answers and answer keys, look-fors, teacher notes, teacher-only sections (differentiation, materials, pacing) and minute stamps: none found."
            ))
        let text = try String(contentsOf: handout, encoding: .utf8)
        #expect(text.hasPrefix("# Student materials: Tides\n"))
        #expect(text.contains("Name: ______________") && text.contains("Exit ticket"))
        #expect(!text.contains("Version") && !text.contains("min"))

        let requests = try await server.requests()
        #expect(requests.count == 3)
        let standards = try #require(requests[1].inputText)
        #expect(
            standards.contains(
                "Align the plan to these standards:\n4-ESS2-1: Make observations and/or measurements to provide evidence of the effects of weathering"
            ))
        #expect(
            standards.contains(
                "(Assessment boundary: Assessment is limited to a single form of weathering or erosion.) — Make observations of the effects of weathering\nRI.4.1: Refer to details and examples in a text when explaining"
            ))
        #expect(standards.contains("quoted word for word"))
        let materials = try #require(requests[2].inputText)
        #expect(materials.contains("Turn it into student handouts") && materials.contains("Leave out everything meant only for the teacher"))
        let lines = try binary.transcriptLines()
        let starts = Self.startedTurns(lines)
        #expect(starts[2]["kind"] as? String == "materials" && starts[2]["base_version"] as? Int == 2)
        let saved = try #require((starts[1]["inputs"] as? [String: Any])?["standards"] as? String)
        #expect(
            saved.hasPrefix("4-ESS2-1: Make observations and/or measurements") && saved.contains("\nRI.4.1: Refer to details and examples in a text"))
        let ends = Self.endedTurns(lines)
        #expect(madeNumber(ends[2], "materials") == 1 && ends[2]["version"] == nil && ends[2]["check"] == nil)

        // Handouts export from the command line too; a paraphrased standard and a teacher note are flagged.
        let page = try await binary.run(["export", "tides", "--materials", "--format", "html"])
        #expect(page.status == 0 && page.stdout.contains("<title>Student materials: Tides</title>") && !page.stdout.contains("Pacing"))
        try await HTMLCheck.parses(page.stdout)
        try await server.script([
            .text(
                Self.overPaced.replacingOccurrences(of: "Materials\n- Globe", with: "Materials\n- Globe\nStandards: make observations of weathering")),
            .text(
                "Tides handout\nName: ____\n1. What pulls the ocean?\n- Answer: the moon\nTeacher note: collect these.\n\n"
                    + "7) Differentiation\n- Support: a word bank\n\nExit Ticket (5 min)\n1. Name the force.\n"),
        ])
        let flagged = try await binary.run(
            ["resume", "tides", "--no-repair"], input: "/standards Make observations of the effects of weathering\n/materials\n/quit\n")
        #expect(flagged.stdout.contains("✗ Not quoted word for word: “Make observations of the effects of weathering”"))
        #expect(flagged.stdout.contains("✗ Looks meant for the teacher: - Answer: the moon"))
        #expect(flagged.stdout.contains("✗ Looks meant for the teacher: Teacher note: collect these."))
        #expect(flagged.stdout.contains("✗ Teacher-only section: “7) Differentiation” and the line under it"))
        #expect(flagged.stdout.contains("✗ Minute stamp (the teacher's timing): Exit Ticket (5 min)"))
        #expect(!flagged.stdout.contains("none found"))
    }

    @Test func handoutsFromAnOlderVersionAreWarnedAboutAndMarked() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let page = binary.home.appending(path: "handouts.html")
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "45", "--name", "stale"],
            input: "/materials\n/shorten 40\n/export materials html \(page.path)\n/quit\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("These handouts were made from v1, but the plan is now v2 (the students' sheets do not say so)."))
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("Made from plan v1"), "the stale note is the teacher's, not the students'")
        #expect(html.contains("<div class=\"write-in\"><span>Name <i></i></span><span>Date <i></i></span><span>Class <i></i></span></div>"))
        #expect(html.contains("Handouts 1 from plan v1"))
        // The teacher's export of v2 shows its version and no model name unless asked.
        let plan = try await binary.run(["export", "stale", "--format", "html"])
        #expect(plan.stdout.contains("<p class=\"version\">Version 2 of 2 · ") && !plan.stdout.contains(">Model<"))
        let named = try await binary.run(["export", "stale", "--format", "md", "--show-model"])
        #expect(named.stdout.contains("- **Model:** "))
    }

    @Test func anOlderTranscriptWithoutChecksIsCheckedWhenResumed() async throws {
        let binary = try LessonplanBinary(baseURL: nil, apiKey: nil)
        defer { binary.removeHome() }
        let sessions = binary.home.appending(path: "sessions")
        try FileManager.default.createDirectory(at: sessions, withIntermediateDirectories: true)
        let old = Transcripts.header(id: "4000000000000000", topic: "Old") + Transcripts.completedTurn(1, text: "Learning Objective\\nOld plan.")
        try old.write(to: sessions.appending(path: "4000000000000000.jsonl"), atomically: true, encoding: .utf8)
        let resumed = try await binary.run(["resume", "4000"], input: "/check\n/pacing\n/level\n/quit\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("── plan check of v1 · default framework · 45-minute lesson"))
        #expect(resumed.stdout.contains("✗ The plan has no “Materials” section."))
        #expect(resumed.stdout.contains("No section says how many minutes it takes, so there is no timeline to draw."))
        #expect(resumed.stdout.contains("There is no student-facing text to measure in v1"))
        // /level names only the sections it measured, and says which are missing.
        #expect(
            resumed.stdout.contains(
                "── reading level of v1 · measured: no student-facing section · not in the plan: Guided Practice, Independent Practice, Check for Understanding, Exit Ticket"
            ))
    }
}
