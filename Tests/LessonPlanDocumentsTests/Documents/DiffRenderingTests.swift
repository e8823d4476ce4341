import LessonPlanDocuments
import Testing

@Suite struct DiffRenderingTests {
    private let old = "Learning Objective\nAdd fractions.\nMaterials\nPaper\nScissors\nGlue\nWarm-Up (5 min)"
    private let new =
        "Learning Objective\nAdd fractions with like denominators.\nMaterials\nPaper\nScissors\nGlue\nWarm-Up (5 min)"

    @Test func plainRenderingHasHeadersAndPrefixes() {
        let text = DiffRendering.render(old: old, new: new).plain
        #expect(
            text == """
                @@ -1,4 +1,4 @@
                  Learning Objective
                - Add fractions.
                + Add fractions with like denominators.
                  Materials
                  Paper
                """)
        #expect(!text.contains("\u{1B}"))
    }

    @Test func colourWrapsHeadersAdditionsAndRemovalsAndResetsEachLine() {
        let text = DiffRendering.render(old: old, new: new).rendered(colour: true)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "\u{1B}[36m@@ -1,4 +1,4 @@\u{1B}[0m")
        #expect(lines.contains("\u{1B}[31m- Add fractions.\u{1B}[0m"))
        #expect(lines.contains("\u{1B}[32m+ Add fractions with like denominators.\u{1B}[0m"))
        #expect(lines.contains("  Materials"))
        for line in lines where line.contains("\u{1B}") {
            #expect(line.hasSuffix("\u{1B}[0m"))
        }
    }

    @Test func severalHunksEachGetAHeader() {
        let before = (1...30).map { "line \($0)" }
        var after = before
        after[1] = "second"
        after[25] = "twenty-sixth"
        let hunks = LineDiff.hunks(LineDiff.diff(lines: before, after), context: 1)
        let text = DiffRendering.render(hunks).plain
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("@@") } == ["@@ -1,3 +1,3 @@", "@@ -25,3 +25,3 @@"])
    }

    @Test func noChangesSaysSo() {
        #expect(DiffRendering.render(old: old, new: old).plain == "(no changes)")
        #expect(DiffRendering.render(old: old, new: old).rendered(colour: true) == "(no changes)")
        #expect(DiffRendering.render([]).plain == "(no changes)")
    }

    @Test func aChangedLineCannotCarryAnEscapeToTheTerminal() {
        let hostile = old.replacingOccurrences(of: "Add fractions.", with: "Add \u{1B}]52;c;SGk=\u{07}fractions.")
        let text = DiffRendering.render(old: old, new: hostile).rendered(colour: true)
        #expect(text.contains("+ Add ␛]52;c;SGk=␇fractions."))
        // The only escapes left are the diff's own colours.
        let escapes = text.components(separatedBy: "\u{1B}").dropFirst().map { String($0.prefix(4)) }
        #expect(escapes.allSatisfy { $0.hasPrefix("[0m") || $0.hasPrefix("[3") })
    }
}
