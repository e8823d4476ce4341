import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import TestSupport
import Testing

@Suite struct PlanExportTests {
    static let plan = """
        1) Learning Objective:
        Students will add fractions with like denominators.
        Materials:
        - Fraction strips
        • Mini whiteboards
        * Markers & erasers
        **Bold reminder** stays a paragraph.
        3. WARM-UP (5 MIN)
        Count by halves aloud.
        Direct Instruction (15 minutes)
        1. Model 1/4 + 2/4 with strips.
        2) Ask pairs to explain why the denominator stays.
        Differentiation is key for every learner.
        Exit Ticket: Solve 2/8 + 3/8 and explain.
        Homework / Extension (optional)
        ---
        """

    static func document(topic: String = "Adding Fractions", plan: String = plan) -> ExportDocument {
        ExportDocument(
            topic: topic, grade: "3–5", minutes: 45, standards: "CCSS.MATH.4.NF.B.3",
            constraints: "No calculators", model: "gpt-4o-mini",
            created: Date(timeIntervalSince1970: 1_750_000_000),
            versions: [
                ExportVersion(
                    number: 1, command: "generate", createdAt: Date(timeIntervalSince1970: 1_750_000_010),
                    text: "First draft"),
                ExportVersion(
                    number: 2, command: "/shorten", createdAt: Date(timeIntervalSince1970: 1_750_000_100), text: plan),
                ExportVersion(
                    number: 3, command: "/lengthen", createdAt: Date(timeIntervalSince1970: 1_750_000_200),
                    text: "Third draft"),
            ],
            currentVersion: 2,
            pacing: [
                PacingSegment(heading: "Warm-Up", start: 0, end: 5),
                PacingSegment(heading: "Direct Instruction", start: 5, end: 20),
                PacingSegment(heading: "Practice & <Exit>", start: 20, end: 45),
            ])
    }

    // MARK: Markdown

    static let utc = TimeZone(identifier: "UTC") ?? .current

    @Test func markdownHeaderListsTheInputs() {
        let markdown = PlanExport.renderMarkdown(Self.document(), timeZone: Self.utc)
        #expect(markdown.hasPrefix("# Lesson plan: Adding Fractions\n"))
        for expected in [
            "- **Grade band:** 3–5", "- **Lesson length:** 45 minutes", "- **Topic:** Adding Fractions",
            "- **Standards:** CCSS.MATH.4.NF.B.3", "- **Constraints:** No calculators",
            "- **Version:** 2 of 3 · 15 June 2025, 15:08 · /shorten",
        ] {
            #expect(markdown.contains(expected + "\n"), "missing \(expected)")
        }
        #expect(!markdown.contains("Third draft") && !markdown.contains("First draft"))
    }

    @Test func markdownTurnsHeadingsAndListsIntoMarkdown() {
        let markdown = PlanExport.renderMarkdown(Self.document())
        let body = markdown.components(separatedBy: "\n---\n").dropFirst().joined(separator: "\n---\n")
        // Bold markers are markup, not words; a heading with text after its colon is a sentence, not a heading; a line
        // the model wrote as `---` is text, escaped, so it can never turn the line above it into a heading.
        #expect(
            body == """

                ## Learning Objective

                Students will add fractions with like denominators.

                ## Materials

                - Fraction strips
                - Mini whiteboards
                - Markers & erasers

                Bold reminder stays a paragraph.

                ## WARM-UP (5 MIN)

                Count by halves aloud.

                ## Direct Instruction (15 minutes)

                1. Model 1/4 + 2/4 with strips.
                2. Ask pairs to explain why the denominator stays.

                Differentiation is key for every learner.
                Exit Ticket: Solve 2/8 + 3/8 and explain.

                ## Homework / Extension (optional)

                \\---

                """)
    }

    @Test func markdownAcceptsOtherHeadings() {
        let document = Self.document(plan: "Objective\n- one\nNotes: bring books")
        let markdown = PlanExport.renderMarkdown(document, headings: ["Objective", "Notes"])
        #expect(markdown.hasSuffix("## Objective\n\n- one\n\nNotes: bring books\n"))
        let headed = PlanExport.renderMarkdown(Self.document(plan: "Objective\n- one\nNotes\nbring books"), headings: ["Objective", "Notes"])
        #expect(headed.hasSuffix("## Objective\n\n- one\n\n## Notes\n\nbring books\n"))
        #expect(PlanExport.renderMarkdown(document).hasSuffix("\n\nObjective\n\n- one\n\nNotes: bring books\n"))
    }

    // MARK: HTML

    @Test func htmlEscapeCoversTheFiveCharacters() {
        #expect(PlanExport.htmlEscape(#"a & b < c > d " e ' f"#) == "a &amp; b &lt; c &gt; d &quot; e &#39; f")
        #expect(PlanExport.htmlEscape("½ — é") == "½ — é")
    }

    /// Bidi controls in model text cannot reorder the page: every one is dropped, the words around it kept.
    @Test func htmlDropsBidiControls() {
        let controls: [Unicode.Scalar] =
            ["\u{061C}", "\u{200E}", "\u{200F}"] + (0x202A...0x202E).compactMap(Unicode.Scalar.init)
            + (0x2066...0x2069).compactMap(Unicode.Scalar.init)
        let hostile = controls.map { "a\(Character($0))b" }.joined(separator: " ")
        let html = PlanExport.renderHTML(Self.document(topic: "Tides \u{202E}evil", plan: Self.plan + "\n" + hostile))
        for control in controls { #expect(!html.unicodeScalars.contains(control), "U+\(String(control.value, radix: 16))") }
        #expect(html.contains(Array(repeating: "ab", count: controls.count).joined(separator: " ")))
        #expect(html.contains("Tides evil"))
    }

    @Test func htmlEscapesScriptAndAmpersandInPlanAndTopic() {
        let hostile = "<script>alert('x')</script> & friends"
        let plan = Self.plan + "\n" + hostile + "\n- " + hostile
        let html = PlanExport.renderHTML(Self.document(topic: "Fractions & <script>bad()</script>", plan: plan))
        #expect(!html.lowercased().contains("<script"))
        #expect(html.contains("<title>Lesson plan: Fractions &amp; &lt;script&gt;bad()&lt;/script&gt;</title>"))
        #expect(html.contains("<p>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; friends</p>"))
        #expect(html.contains("<li>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; friends</li>"))
        #expect(html.contains("<li>Markers &amp; erasers</li>"))
        #expect(html.contains("Practice &amp; &lt;Exit&gt;"))
    }

    @Test func htmlContainsEveryPlanLineEscaped() {
        let lines = [
            "Learning Objective", "Compare <, > and = with fractions & decimals.", "Materials",
            "- Strips \"A\" and 'B'", "• Cards", "Guided Practice", "1. Sort cards", "2) Check a partner's sort",
            "Teacher note: watch for 3/4 > 3/5 errors.",
        ]
        let html = PlanExport.renderHTML(Self.document(plan: lines.joined(separator: "\n")))
        for line in lines {
            // Markers are markup in HTML; the words after them must all be there, escaped.
            var content = Substring(line)
            for marker in ["- ", "• ", "1. ", "2) "] where content.hasPrefix(marker) {
                content = content.dropFirst(marker.count)
            }
            #expect(html.contains(PlanExport.htmlEscape(String(content))), "missing \(line)")
        }
        #expect(html.contains("<h2>Learning Objective</h2>") && html.contains("<h2>Guided Practice</h2>"))
        #expect(html.contains("<ul>\n<li>Strips &quot;A&quot; and &#39;B&#39;</li>\n<li>Cards</li>\n</ul>"))
        #expect(html.contains("<ol>\n<li>Sort cards</li>\n<li>Check a partner&#39;s sort</li>\n</ol>"))
    }

    @Test func htmlIsSelfContainedAndPrintable() {
        let html = PlanExport.renderHTML(Self.document())
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        #expect(html.contains("<meta charset=\"utf-8\">"))
        #expect(html.contains("<style>") && html.contains("@media print"))
        for banned in ["<script", "<link", "@import", "url(", "http://", "https://", "<img", "@font-face"] {
            #expect(!html.lowercased().contains(banned), "contains \(banned)")
        }
        #expect(html.contains("<span><strong>Grade band:</strong> 3–5</span>"))
        #expect(html.contains("<span><strong>Constraints:</strong> No calculators</span>"))
    }

    @Test func htmlHasPacingTableAndTimeline() {
        let html = PlanExport.renderHTML(Self.document())
        #expect(html.contains("<tr><td>Warm-Up</td><td>0–5</td><td>5 min</td></tr>"))
        #expect(html.contains("<tr><td>Direct Instruction</td><td>5–20</td><td>15 min</td></tr>"))
        #expect(html.contains("style=\"left: 0.00%; width: 11.11%\""))
        #expect(html.contains("style=\"left: 11.11%; width: 33.33%\""))
        #expect(html.contains("style=\"left: 44.44%; width: 55.56%\""))
        var empty = Self.document()
        empty.pacing = []
        #expect(PlanExport.renderHTML(empty).contains("no pacing to show"))
    }

    @Test func htmlParsesWithBalancedTags() async throws {
        let html = PlanExport.renderHTML(Self.document(topic: "A & <b>", plan: Self.plan + "\n<div> & </td>"))
        let result = try await Python.run(Self.tagChecker, input: Data(html.utf8))
        #expect(result.status == 0, "parser said: \(result.output)")
        #expect(result.output.contains("ok"))
    }

    /// Walks the page with Python's html.parser and fails on any unclosed or mismatched element.
    static let tagChecker = #"""
        import sys
        from html.parser import HTMLParser
        VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
        class Checker(HTMLParser):
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.stack, self.seen, self.errors, self.doctype = [], set(), [], False
            def handle_decl(self, decl):
                self.doctype = self.doctype or decl.lower() == "doctype html"
            def handle_starttag(self, tag, attrs):
                self.seen.add(tag)
                if tag not in VOID:
                    self.stack.append(tag)
            def handle_startendtag(self, tag, attrs):
                self.errors.append("self-closing " + tag)
            def handle_endtag(self, tag):
                if not self.stack or self.stack[-1] != tag:
                    self.errors.append("unexpected </%s> with open %s" % (tag, self.stack))
                else:
                    self.stack.pop()
        checker = Checker()
        checker.feed(sys.stdin.read())
        checker.close()
        missing = {"html", "head", "body", "table", "style", "title"} - checker.seen
        problems = checker.errors + ["unclosed %s" % checker.stack] * bool(checker.stack)
        problems += ["missing %s" % sorted(missing)] * bool(missing)
        problems += ["script tag"] * ("script" in checker.seen) + ["no doctype"] * (not checker.doctype)
        if problems:
            print("; ".join(problems))
            sys.exit(1)
        print("ok")
        """#

    // MARK: JSON

    @Test func jsonRoundTrips() throws {
        let document = Self.document()
        let data = try PlanExport.renderJSON(document)
        #expect(try PlanExport.decodeJSON(data) == document)
    }

    @Test func jsonIsPrettySortedAndCarriesTheCurrentPlan() throws {
        let data = try PlanExport.renderJSON(Self.document())
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\n  \"currentVersion\" : 2"))
        let keys = ["\"currentPlan\"", "\"currentVersion\"", "\"inputs\"", "\"pacing\"", "\"versions\""]
        let positions = keys.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted())

        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["currentPlan"] as? String == Self.plan)
        let inputs = try #require(object["inputs"] as? [String: Any])
        #expect(inputs["topic"] as? String == "Adding Fractions" && inputs["minutes"] as? Int == 45)
        #expect(inputs["created"] as? String == "2025-06-15T15:06:40Z")
        let versions = try #require(object["versions"] as? [[String: Any]])
        #expect(versions.map { $0["number"] as? Int } == [1, 2, 3])
        #expect(versions.map { $0["command"] as? String } == ["generate", "/shorten", "/lengthen"])
        #expect(versions.first?["created"] as? String == "2025-06-15T15:06:50Z")
        #expect(versions.last?["text"] as? String == "Third draft")
    }
}
