import Foundation
import LessonPlanKit
import LessonPlanStore
import TestSupport
import Testing

/// A unit through the built binary against the loopback fake server: `lessonplan unit` writes an overview and
/// three plans that pass their check; `resume`, `/lesson 2` and `/shorten 30` revise lesson 2 alone; the unit's
/// docx, read back by pandoc, has each lesson as its own part.
@Suite(.serialized) struct UnitEndToEndTests {
    /// The session as the transcript in the binary's data directory tells it.
    static func state(_ binary: LessonplanBinary) throws -> SessionState {
        let sessions = binary.home.appending(path: "sessions")
        let files = try FileManager.default.contentsOfDirectory(at: sessions, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jsonl" }
        let file = try #require(files.count == 1 ? files.first : nil)
        return try #require(TranscriptReader.state(of: try TranscriptReader.read(file)))
    }

    @Test func aThreeLessonUnitThenLessonTwoAloneIsShortenedAndTheDocxHasEachLesson() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["unit", "--grade", "4", "--topic", "Fractions", "--lessons", "3", "--minutes", "45"])
        #expect(result.status == 0, "\(result.stderr)")
        // Progress on stderr, one line per lesson with the time so far; the overview with each lesson's check on stdout.
        for number in 1...3 {
            #expect(result.stderr.contains("lesson \(number) of 3 · "), "\(result.stderr)")
            #expect(result.stdout.contains("✓ Lesson \(number): Fractions: "), "\(result.stdout)")
        }
        #expect(result.stderr.contains("✓ overview check"))
        #expect(result.stdout.contains("Goal: ") && result.stdout.contains("Essential questions:"))

        let written = try Self.state(binary)
        #expect(written.unit?.lessons == 3)
        #expect(written.lessonVersions.count == 3)
        for (lesson, number) in written.lessonVersions {
            let version = try #require(written.version(number))
            #expect(version.lesson == lesson && version.check?.passed == true, "lesson \(lesson)")
        }
        // Each lesson's request carried the overview, and the objectives of the lessons before it.
        let requests = try await server.requests()
        let inputs = requests.compactMap(\.inputText)
        #expect(inputs.count == 4 && inputs[0].contains("Plan a unit of 3 lessons"))
        for (index, input) in inputs.dropFirst().enumerated() {
            #expect(input.contains("<<<UNIT") && input.contains("Lesson 3: Fractions: Equivalent forms"))
            #expect(input.contains("- Lesson 1: Fractions: What it is. Objective: ") == (index >= 1))
            #expect(input.contains("- Lesson 2: Fractions: Naming and drawing. Objective: ") == (index >= 2))
        }

        // resume, /lesson 2, /shorten 30: a new version of lesson 2; lessons 1 and 3 keep theirs.
        let id = String(written.header.id.prefix(8))
        let resumed = try await binary.run(["resume", id], input: "/lesson 2\n/shorten 30\n/unit\n/quit\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("── unit · Fractions"))
        let after = try Self.state(binary)
        let lesson2 = try #require(after.lessonVersions[2].flatMap(after.version))
        #expect(lesson2.command == "/shorten 30" && lesson2.inputs.minutes == 30 && lesson2.lesson == 2)
        #expect(lesson2.parent == written.lessonVersions[2])
        #expect(after.lessonVersions[1] == written.lessonVersions[1])
        #expect(after.lessonVersions[3] == written.lessonVersions[3])
        #expect(after.currentLesson == 2)

        // sessions lists it as a unit; replay walks it lesson by lesson; replay --rerun sends its model turns again.
        let listed = try await binary.run(["sessions"])
        #expect(listed.stdout.contains("unit of 3 lessons: Fractions"), "\(listed.stdout)")
        let replayed = try await binary.run(["replay", id, "--plain"])
        let headings = replayed.stdout.split(separator: "\n").filter { $0.hasPrefix("━━ ") || $0.hasPrefix("── turn") }
        let walk = headings.map { $0.hasPrefix("━━ ") ? String($0.prefix(18)) : String($0.prefix(9)) }
        #expect(
            walk == [
                "── turn 1", "━━ Lesson 1 of 3: ", "── turn 2", "━━ Lesson 2 of 3: ", "── turn 3", "━━ Lesson 3 of 3: ", "── turn 4",
                "━━ Lesson 2 of 3: ", "── turn 5",
            ], "\(walk)")
        let rerun = try await binary.run(["replay", "--rerun", id, "--yes"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        for command in ["/unit overview 3", "/unit lesson 1", "/unit lesson 3", "/shorten 30"] {
            #expect(rerun.stdout.contains("· \(command)\n   recorded: completed · now: completed"), "\(command): \(rerun.stdout)")
        }

        // The unit's docx, read back by pandoc: the overview and contents, then "Lesson 1…3" as its top parts.
        let file = binary.home.appending(path: "unit.docx")
        let exported = try await binary.run(["export", id, "--unit", "--format", "docx", "-o", file.path])
        #expect(exported.status == 0, "\(exported.stderr)")
        let parts = try await binary.runShell("pandoc -t markdown '\(file.path)' | grep '^# '")
        #expect(
            parts.split(separator: "\n").map(String.init) == [
                "# Overview", "# Contents", "# Lesson 1: Fractions: What it is", "# Lesson 2: Fractions: Naming and drawing",
                "# Lesson 3: Fractions: Equivalent forms",
            ], "\(parts)")
        let text = try await binary.runShell("pandoc -t plain '\(file.path)'")
        #expect(text.components(separatedBy: "Exit Ticket").count - 1 >= 6, "each lesson's pacing row and section")
    }

    /// A unit whose overview failed is listed as that, not as a session like any other.
    @Test func aFailedOverviewIsListedAsAFailedUnit() async throws {
        let server = try await FakeOpenAIServer()
        try await server.script([.error(status: 400, message: "bad request")])
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["unit", "--grade", "4", "--topic", "Fractions", "--lessons", "3", "--minutes", "45"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("nothing was written as a unit; `lessonplan sessions prune` removes it"), "\(result.stderr)")
        let listed = try await binary.run(["sessions"])
        #expect(listed.stdout.contains("failed unit (no overview): Fractions"), "\(listed.stdout)")
    }

    /// An overview that cites a code that is no standard fails its check, and its repair is told which code.
    @Test func anOverviewCitingAnInventedCodeIsRepaired() async throws {
        let server = try await FakeOpenAIServer()
        let invented = """
            Goal: Students compare fractions with unlike denominators (4.NF.9, 4.NF.A.2).
            Essential questions:
            - When are two fractions the same amount?

            Lesson 1: Fractions: Equivalent forms
            Objective: Students will generate equivalent fractions using area models.
            Builds on: what students already know

            Lesson 2: Fractions: Comparing
            Objective: Students will compare two fractions with different denominators and justify the comparison.
            Builds on: Lesson 1
            """
        try await server.script([.text(invented)])
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let result = try await binary.run(["unit", "--grade", "3-5", "--topic", "Fractions", "--lessons", "2", "--minutes", "45"])
        #expect(result.status == 0, "\(result.stderr)")
        let shown = result.stdout + result.stderr
        #expect(shown.contains("4.NF.9 is not a Common Core standard"), "\(shown)")
        let requests = try await server.requests()
        #expect(requests.count == 4, "overview, its repair, two lessons")
        #expect(requests.count > 1 && requests[1].inputText?.contains("4.NF.9 is not a Common Core standard") == true)
        #expect(requests.count > 1 && requests[1].inputText?.contains("4.NF.A.2 is not") != true)
    }
}
