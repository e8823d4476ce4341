import Foundation
import TestSupport
import Testing

/// The content check end to end: the footer, /check, the automatic repair and the transcript, through the built tool.
@Suite(.serialized) struct ContentCheckEndToEndTests {
    @Test(arguments: [
        ["--free-text"], ["--structured"], ["--framework", "5e"], ["--framework", "hunter"], ["--framework", "ubd"],
        ["--framework", "gradual-release"], ["--framework", "hunter", "--structured"],
    ])
    func theFakeServersPlansGetNoContentNotes(flags: [String]) async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        for (grade, topic) in [("K", "Counting to 20"), ("4", "Fractions on a number line"), ("10", "Causes of World War I")] {
            let result = try await binary.run(["generate", "--grade", grade, "--topic", topic, "--no-repair"] + flags)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("· ✓ structure · ✓ content"), "\(flags) \(topic): \(result.stderr)")
        }
    }

    @Test func theIssuesPlanGetsNotesNotATickAndIsRepairedOnceWithThem() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text(PlanFixtures.offlineFractions), .plan])
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Fractions on a number line", "--minutes", "45", "--free-text"],
            input: "/quit\n")
        let out = result.stdout
        #expect(out.contains("── v1 · ") && out.contains("· ✓ structure · ✗ content: 5 problems · 6 suggestions\n"), "\(out)")
        #expect(out.contains("   ✗ Independent Practice only repeats Guided Practice"))
        #expect(out.contains("   • Learning Objective: “Fractions on a number line for students in grades 3–5.” has no observable verb"))
        #expect(out.contains("── repairing v1 once: asking for the same plan without its 5 problems…"))
        #expect(out.contains("── v2 · ") && out.contains("· ✓ structure · ✓ content\n   The repaired plan checks better, so it replaces v1."))
        // The automatic repair was asked with the problems, in the teacher's sentences; advice is never sent on its own.
        let requests = try await server.requests()
        #expect(requests.count == 2)
        let repair = requests.last?.inputText ?? ""
        #expect(repair.contains("- Independent Practice only repeats Guided Practice"))
        #expect(!repair.contains("is not a question or a task students answer"))
        // The transcript keeps the notes with the turn.
        let sessions = binary.home.appendingPathComponent("sessions")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: sessions.path).first { $0.hasSuffix(".jsonl") })
        let lines = try String(contentsOf: sessions.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
        let ends = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .filter { $0["type"] as? String == "turn_ended" }
        let notes = (ends.first?["check"] as? [String: Any])?["notes"] as? [[String: Any]] ?? []
        #expect(notes.count == 11)
        #expect(notes.contains { $0["kind"] as? String == "objective_verb" && $0["section"] as? String == "Learning Objective" })
        #expect(((ends.last?["check"] as? [String: Any])?["notes"] as? [Any])?.isEmpty == true)
    }

    @Test func checkListsTheNotesApartFromTheStructure() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.text(PlanFixtures.offlineFractions)])
        let result = try await binary.run(
            ["--grade", "4", "--topic", "Fractions on a number line", "--minutes", "45", "--free-text", "--no-repair"],
            input: "/check\n/quit\n")
        let out = result.stdout
        #expect(out.contains("── plan check of v1 · default framework · 45-minute lesson\nStructure\nHeadings: 10 of 10 present."), "\(out)")
        #expect(out.contains("✓ The structure passes the check.\n\nContent\n✗ 5 content problems:\n  ✗ Independent Practice only repeats"))
        #expect(out.contains("Advice (never sent on its own):\n  • "))
        #expect(out.contains("  • Exit Ticket: “How many are there?” repeats Check for Understanding word for word"))
        #expect(out.contains("/repair asks once for a plan without them; it is kept only if it checks better."))
        #expect(try await server.requests().count == 1)
    }

    /// The ✓ line says what was checked; it never claims a rule passed that left advice below it.
    @Test func checkWithOnlyAdviceClaimsNoMoreThanNoProblems() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let withStatement = PlanFixtures.passing(minutes: 45)
            .replacingOccurrences(of: "3. Where could you see this outside school?", with: "3. Tides happen twice a day.")
        try await server.script([.text(withStatement), .text(PlanFixtures.passing(minutes: 45))])
        let result = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--free-text"],
            input: "/check\n/revise same again\n/check\n/quit\n")
        let out = result.stdout
        let checks = out.components(separatedBy: "── plan check of ")
        #expect(checks.count == 3, "\(out)")
        let first = checks.count > 1 ? checks[1] : ""
        #expect(first.contains("✓ No content problems. Checked: "), "\(first)")
        #expect(first.contains("Advice (never sent on its own):\n  • Check for Understanding: “Tides happen twice a day.”"), "\(first)")
        #expect(!first.contains("no advice"))
        let second = checks.count > 2 ? checks[2] : ""
        #expect(second.contains("✓ No content problems and no advice. Checked: "), "\(second)")
        #expect(!second.contains("Advice ("))
    }
}
