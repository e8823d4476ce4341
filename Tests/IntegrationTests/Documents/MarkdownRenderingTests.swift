import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore
import TestSupport
import Testing

/// The Markdown export as a CommonMark and GitHub viewer shows it, rendered by markdown-it-py (PyPI; `scripts/setup`
/// installs it): the quiz's options a list in each item, and what the model wrote shown as written.
@Suite struct MarkdownRenderingTests {
    static let plan = """
        Exit Ticket (5 min)
        1. Name the <b>two</b> forces, and say which is *stronger*.
        2. Use [the diagram](http://example.com) and the `moon` in one sentence.
        Name: __________
        """

    static func document(kind: TurnKind) -> (ExportDocument, PlanDocument) {
        let items = (1...12).map { number in
            QuizItem(
                stem: "Question \(number): what does <b>the moon</b> do to *tides* & waves?",
                options: [
                    QuizOption(letter: "A", text: "Pulls the water <i>toward</i> it", misconception: ""),
                    QuizOption(
                        letter: "B", text: "Nothing at all_", misconception: "The moon is too far away.",
                        feedback: "Think about what <b>gravity</b> does from far away."),
                    QuizOption(letter: "C", text: "Heats the sea &amp; the sand", misconception: "Tides are heat."),
                ], answerLetters: ["A"])
        }
        let rubric = Rubric(
            task: "Tide <diagram>", levels: [RubricLevel(name: "Beginning", points: 1), RubricLevel(name: "Secure", points: 2)],
            criteria: [RubricCriterion(name: "Labels | arrows", cells: ["Few <u>labels</u>", "Every label *right*"])])
        let document = ExportDocument(
            topic: "Tides", grade: "6–8", minutes: 5, created: Date(timeIntervalSince1970: 0),
            versions: [ExportVersion(number: 1, command: "/generate", createdAt: Date(timeIntervalSince1970: 0), text: plan)],
            currentVersion: 1, kind: kind, rubric: rubric, quizzes: [Quiz(kind: .exit, items: items)])
        return (document, PlanDocument(parsing: plan, headings: ["Exit Ticket"]))
    }

    /// The Markdown rendered to HTML by markdown-it-py's CommonMark preset with GFM tables.
    static func rendered(_ markdown: String) async throws -> String {
        let script = """
            import sys
            from markdown_it import MarkdownIt
            sys.stdout.write(MarkdownIt("commonmark").enable("table").render(sys.stdin.read()))
            """
        let result = try await Python.run(script, input: Data(markdown.utf8))
        guard result.status == 0 else {
            throw PrintedPage.Failure(description: "markdown-it-py is not installed or failed (scripts/setup installs it): \(result.output)")
        }
        return result.output
    }

    @Test(arguments: [TurnKind.plan, .materials])
    func theQuizRendersAsItemsWithTheirOptionsAsANestedListAndModelTextShowsAsWritten(kind: TurnKind) async throws {
        let (document, plan) = Self.document(kind: kind)
        let markdown = PlanExport.renderMarkdown(document, plan: plan)
        let html = try await Self.rendered(markdown)
        let quiz = try #require(html.range(of: "<h2>Exit quiz</h2>")).upperBound
        let rest = html[quiz...]
        let section = String(rest[..<(rest.range(of: "<h2>")?.lowerBound ?? rest.endIndex)])
        // Twelve items, each its stem then a list of its three options: `10.` and later indented under their text too.
        let items = section.components(separatedBy: "<li>\n<p>Question ").dropFirst()
        #expect(items.count == 12, "\(section.prefix(600))")
        for item in items {
            #expect(
                item.contains("<ul>\n<li>A) Pulls the water &lt;i&gt;toward&lt;/i&gt; it</li>\n<li>B) Nothing at all_</li>"), "\(item.prefix(400))")
        }
        #expect(!section.contains("<pre>") && !section.contains("<code>"), "an option read as code")
        // Raw HTML in what the model wrote shows as text, never as markup; emphasis and entities stay literal.
        #expect(section.contains("what does &lt;b&gt;the moon&lt;/b&gt; do to *tides* &amp; waves?"))
        #expect(section.contains("Heats the sea &amp;amp; the sand"))
        #expect(!html.contains("<b>") && !html.contains("<i>") && !html.contains("<u>") && !section.contains("<em>"))
        #expect(html.contains("Name the &lt;b&gt;two&lt;/b&gt; forces, and say which is *stronger*."))
        #expect(html.contains("Use [the diagram](http://example.com) and the `moon` in one sentence.") && !html.contains("<a href"))
        // The rubric is a table, its cells literal, a `|` in a cell kept in its cell.
        #expect(html.contains("<td>Labels | arrows</td>") || html.contains("<th>Labels | arrows</th>"), "\(html)")
        #expect(html.contains("<td>Few &lt;u&gt;labels&lt;/u&gt;</td>"))
        // Student feedback is on the teacher's answer key only, never on the handouts.
        #expect(html.contains("gravity") == (kind == .plan))
    }

    @Test func theAnswerKeyNestsEachMisconceptionUnderItsItem() async throws {
        let (document, plan) = Self.document(kind: .plan)
        let html = try await Self.rendered(PlanExport.renderMarkdown(document, plan: plan))
        let key = String(html[try #require(html.range(of: "<h2>Answer key: exit quiz</h2>")).upperBound...])
        let items = key.components(separatedBy: "<li>A) Pulls the water").dropFirst()
        #expect(items.count == 12, "\(key.prefix(500))")
        #expect(
            key.contains(
                "<ul>\n<li>B: The moon is too far away.\n<ul>\n<li>Student feedback: Think about what &lt;b&gt;gravity&lt;/b&gt; does from far away.</li>\n</ul>\n</li>\n<li>C: Tides are heat.</li>\n</ul>"
            ),
            "\(key.prefix(500))")
        // Items 10 to 12 too: the feedback nested under its misconception, however wide the number.
        #expect(key.components(separatedBy: "<li>Student feedback: ").count == 13, "\(key.suffix(800))")
    }
}
