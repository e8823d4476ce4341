import Foundation
import TestSupport
import Testing

/// The assessment loop through the built binary (issue #39): the quiz chosen for the platform, student feedback
/// and never the teacher's note, a quiz that follows the lesson, parallel forms with their own keys, and results
/// read back into tomorrow's plan with counts the tool wrote.
@Suite struct AssessmentLoopEndToEndTests {
    @Test func quizToPlatformResultsAndTomorrowsPlan() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let work = binary.home.appending(path: "work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        func file(_ name: String) -> URL { work.appending(path: name) }
        let session = try await binary.run(
            ["--grade", "4", "--topic", "Tides", "--minutes", "30", "--name", "loop", "--no-repair"],
            input: """
                /quiz exit
                /quiz starter 3
                /export quiz exit moodle \(file("exit.xml").path)
                /lengthen 45
                /quiz forms 2 exit
                /export quiz exit gift \(file("exit.gift").path)
                /export quiz exit qti \(file("exit.zip").path)
                /export quiz exit moodle \(file("forms.xml").path)
                /export quiz exit aiken \(file("forms.txt").path)
                /export quiz exit blackboard \(file("board.txt").path)
                /export docx \(file("plan.docx").path)
                /export html \(file("plan.html").path)
                /quit

                """, timeout: .seconds(120))
        #expect(session.status == 0, "\(session.stderr)")
        // The exit quiz by name, not the newer starter; student feedback, never the teacher's note.
        #expect(session.stderr.contains("Wrote a Moodle XML file of quiz 1 (from v1)"), "\(session.stderr)")
        let moodle = try await LMSReader.read("moodle", file("exit.xml"))
        #expect(moodle.items.count == 5)
        #expect(moodle.items[1].feedback.filter { !$0.isEmpty }.allSatisfy { $0.hasPrefix("You mixed up idea 2") }, "\(moodle.items[1].feedback)")
        #expect(!(try String(contentsOf: file("exit.xml"), encoding: .utf8)).contains("mixes up idea"))
        // A longer plan of the same lesson keeps the quiz, and says it was checked.
        #expect(session.stderr.contains("Quiz 1 (exit) was written for v1 and checked against v2 by code"), "\(session.stderr)")
        // Two forms, a file each, each key the same answer as the quiz's, read back by an independent reader.
        for (format, name, suffix) in [
            ("gift", "exit", "gift"), ("qti", "exit", "zip"), ("moodle", "forms", "xml"), ("aiken", "forms", "txt"), ("blackboard", "board", "txt"),
        ] {
            let a = try await LMSReader.read(format, file("\(name)-form-A.\(suffix)"))
            let b = try await LMSReader.read(format, file("\(name)-form-B.\(suffix)"))
            #expect(Set(a.items.map(\.stem)) == Set(b.items.map(\.stem)) && a.items.map(\.stem) != b.items.map(\.stem), "\(format)")
            for item in b.items {
                let original = try #require(a.items.first { $0.stem == item.stem })
                #expect(item.options[item.key] == original.options[original.key], "\(format): \(item.stem)")
            }
        }
        let page = try String(contentsOf: file("plan.html"), encoding: .utf8)
        #expect(page.contains("Answer key: exit quiz, form B") && page.contains("Quiz 1 (exit) was written for v1 and checked against v2 by code"))
        let document = try await OfficeDocument.paragraphs(of: file("plan.docx")).map(\.text)
        #expect(
            document.contains("Answer key: exit quiz, form A") && document.contains("Answer key: exit quiz, form B"),
            "\(document.filter { $0.hasPrefix("Answer") })")

        // Counts in: a CSV with a column of names that is never read; ranked by code.
        try "item,option,count,teacher\n1,B,18,Ms Rivera\n1,A,2,\n2,A,9,\n2,B,4,\n2,C,7,\n".write(
            to: file("counts.csv"), atomically: true, encoding: .utf8)
        let results = try await binary.run(["results", "loop", file("counts.csv").path, "--quiz", "exit"])
        #expect(results.status == 0, "\(results.stderr)")
        #expect(results.stdout.contains("Item 2: 7 of 20 right (35%)"), "\(results.stdout)")
        #expect(results.stdout.contains("1. 9 of 20 chose A on item 2 (a student who picks A mixes up idea 2)"), "\(results.stdout)")
        #expect(try !binary.transcriptLines().contains { ($0["type"] as? String) == "results" && "\($0)".contains("Rivera") })

        // Tomorrow's plan: the warm-up carries the top misconception with its count, written by the tool.
        let reteach = try await binary.run(["resume", "loop"], input: "/reteach\n/quit\n", timeout: .seconds(60))
        #expect(reteach.status == 0, "\(reteach.stderr)")
        let sent = try #require(try await server.requests().last?.inputText)
        #expect(sent.contains("1. a student who picks A mixes up idea 2. (item 2, option A)"), "\(sent)")
        let plan = try await binary.run(["export", "loop", "--format", "md"])
        let warmUp = try #require(plan.stdout.components(separatedBy: "## Warm-Up").last)
        #expect(
            warmUp.hasPrefix(
                " (5 min)\n\nTeacher note: quiz 1 results (20 students, counted by lessonplan): 9 of 20 chose A on item 2 (a student who picks A mixes up idea 2)"
            ), "\(warmUp.prefix(300))")
    }
}
