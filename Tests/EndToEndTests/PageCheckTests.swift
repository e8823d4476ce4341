import Foundation
import TestSupport
import Testing

/// `scripts/page-check` on real sessions, as a teacher prints them: every export (plan, handouts, unit; html, docx,
/// odt, pptx) on Letter and on A4, read page by page; and the check itself catching a split item, a blank page and a
/// page of one line, so a pass means something.
@Suite(.serialized) struct PageCheckTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "scripts/page-check")

    /// A rubric of six rows and four levels, each cell a sentence or two, as a model writes one, and its students' version.
    static let sixRowRubric: String = {
        let header = "Beginning (1) | Developing (2) | Proficient (3) | Exemplary (4)"
        let levels = header.components(separatedBy: " | ")
        var lines = ["Rubric: Tides poster", "| Criterion | \(header) |", "| --- | --- | --- | --- | --- |"]
        for criterion in ["Explains the idea", "Uses vocabulary", "Gives an example", "Draws a diagram", "Cites evidence", "Presents clearly"] {
            let cells = levels.map { "\(criterion) at \($0): the work shows this with the moon, the sun and the sea in a sentence or two" }
            lines.append("| \(criterion) | " + cells.joined(separator: " | ") + " |")
        }
        lines += ["", "Student version:", "| I can … | \(header) |", "| --- | --- | --- | --- | --- |"]
        for criterion in ["I can explain", "I can use the words", "I can give an example", "I can draw it", "I can cite evidence", "I can present"] {
            lines.append(
                "| \(criterion) | " + levels.map { "\(criterion): \($0), with the moon and the sea in my own words" }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }()

    /// The page check's report on a session, with the exit status last (`rc=N`).
    static func pageCheck(_ binary: LessonplanBinary, session: String, out: URL) async throws -> String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = [Self.script.path, session, "--lessonplan", binary.url.path, "--out", out.path, "--png"].map(quoted)
            .joined(separator: " ")
        return try await binary.runShell(command + " 2>&1; echo rc=$?", timeout: .seconds(1200))
    }

    @Test func aLessonWithFifteenItemQuizzesAndASixRowRubricPrintsWholeOnLetterAndA4() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        try await server.script([.plan, .plan, .plan, .plan, .text(Self.sixRowRubric)])
        let made = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "pages"],
            input: "/materials\n/quiz exit 15\n/quiz starter 15\n/rubric\n/quit\n", timeout: .seconds(120))
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("rubric 1") && made.stdout.contains("✓ rubric check"), "\(made.stdout.suffix(800))")

        let out = binary.home.appending(path: "pages")
        let report = try await Self.pageCheck(binary, session: "pages", out: out)
        #expect(report.hasSuffix("rc=0\n"), "\(report)")
        #expect(report.contains("page-check: 14 printouts, 0 problems"), "\(report)")
        for line in ["plan.docx (letter)", "plan.docx (a4)", "plan.odt (a4)", "handouts.html (letter)", "handouts.odt (a4)", "plan.pptx:"] {
            #expect(report.contains(line), "\(line) was not printed: \(report)")
        }
        // What was checked is there: the six rows, the fifteen items of each quiz, the slip.
        let html = try String(contentsOf: out.appending(path: "plan.html"), encoding: .utf8)
        #expect(html.components(separatedBy: "<li class=\"quiz-item\">").count - 1 == 30)
        #expect(html.contains("Presents clearly at Exemplary (4)"))
        #expect(FileManager.default.fileExists(atPath: out.appending(path: "handouts-docx-a4-1.png").path))
    }

    @Test func aUnitOfThreeLessonsWithARubricPrintsWhole() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(
            ["unit", "--grade", "6-8", "--topic", "Tides", "--lessons", "3", "--minutes", "45", "--name", "tides-unit"], timeout: .seconds(120))
        #expect(made.status == 0, "\(made.stderr)")
        try await server.script([.text(Self.sixRowRubric)])
        let rubric = try await binary.run(["resume", "tides-unit"], input: "/lesson 3\n/rubric\n/quit\n", timeout: .seconds(120))
        #expect(rubric.status == 0, "\(rubric.stderr)")

        let out = binary.home.appending(path: "unit")
        let report = try await Self.pageCheck(binary, session: "tides-unit", out: out)
        #expect(report.hasSuffix("rc=0\n"), "\(report)")
        // The lesson (html, docx, odt on two papers, and its slides) and the unit (html, docx, odt on two papers).
        #expect(report.contains("page-check: 13 printouts, 0 problems"), "\(report)")
        let unit = try String(contentsOf: out.appending(path: "unit.html"), encoding: .utf8)
        #expect(unit.components(separatedBy: "Exit Ticket").count > 3 && unit.contains("Presents clearly at Exemplary (4)"))
    }

    /// The check fails where it should: an item whose options are on the next page, a blank page, a page of one line.
    @Test func theCheckFindsASplitItemTicketAndRowABlankPageAndAStrayLine() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "page-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let filler = (1...8).map { "<p>Filler paragraph \($0) to take up room on the first page of the printout.</p>" }.joined()
        let page = """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body>
            <section class="quiz"><h2>Exit quiz</h2>\(filler)<ol><li class="quiz-item">Which pulls the sea?<ol type="A"><li>The sun</li>
            <li style="break-before: page">The moon</li></ol></li></ol></section>
            <p style="break-before: page">Alone on its page.</p>
            <div style="break-before: page; height: 2in"></div>
            <p style="break-before: page">One more</p><p>and another line.</p>
            <h2 style="break-before: page">Exit Ticket</h2><ol><li>Name one force.</li>
            <li style="break-before: page">Draw the moon.</li><li>Explain a tide.</li></ol>
            <table class="rubric-table" style="break-before: page"><tr><th>Criterion</th><th>Beginning (1)</th></tr>
            <tr><td>Gives an example of tides</td><td><div style="height: 12in"></div>Names a tide</td></tr></table>
            </body></html>
            """
        let html = folder.appending(path: "sample.html")
        try Data(page.utf8).write(to: html)
        let check = #"""
            import sys
            from importlib.machinery import SourceFileLoader
            script, html, folder = sys.stdin.read().split("\n")[:3]
            check = SourceFileLoader("page_check", script).load_module()
            groups, headings = check.groups_of(open(html, encoding="utf-8").read())
            for paper in ("letter", "a4"):
                pdf = check.print_pdf(html, paper, folder)
                problems, pages = check.check(pdf, paper, groups, headings, False)
                print(pages, *problems, sep="\n")
            """#
        let result = try await Python.run(check, input: Data([Self.script.path, html.path, folder.path].joined(separator: "\n").utf8))
        #expect(result.status == 0, "\(result.output)")
        for paper in ["letter", "a4"] {
            #expect(result.output.contains("\(paper): the Exit quiz item 1 “Which pulls the sea?” spans pages 1–2"), "\(result.output)")
            #expect(result.output.contains("\(paper): page 3 holds a single line (“Alone on its page.”)"), "\(result.output)")
            #expect(result.output.contains("\(paper): page 4 is blank"), "\(result.output)")
            #expect(!result.output.contains("\(paper): page 5"), "two lines are not a stray line: \(result.output)")
            #expect(result.output.contains("\(paper): the exit ticket “Exit Ticket” spans pages 6–7"), "\(result.output)")
            #expect(result.output.contains("\(paper): the rubric row “Gives an example of tides” spans pages 8–"), "\(result.output)")
        }
    }
}
