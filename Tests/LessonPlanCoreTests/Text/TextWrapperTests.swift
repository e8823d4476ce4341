import LessonPlanCore
import Testing

@Suite struct TextWrapperTests {
    /// Every line of `text` in columns, as a terminal draws it.
    func widths(_ text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayWidth.of($0) }
    }

    @Test func displayWidthCountsWideCharactersTwiceAndMarksNever() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("3–5 café") == 8)
        #expect(DisplayWidth.of("e\u{301}") == 1, "e and a combining acute are one column")
        #expect(DisplayWidth.of("分数") == 4)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ｆｕｌｌ") == 8)
        #expect(DisplayWidth.of("🍕") == 2)
        #expect(DisplayWidth.of("☀️") == 2, "an emoji with its presentation selector")
        #expect(DisplayWidth.of("👩‍🏫") == 2, "a ZWJ sequence is one emoji")
        #expect(DisplayWidth.of("✓ ✗") == 3)
    }

    @Test func aLineThatFitsIsLeftAloneAndNewlinesStay() {
        let text = "short line\n\n  indented   with  spaces  \nlast"
        #expect(TextWrapper.wrap(text, width: 80) == text)
    }

    @Test func proseBreaksBetweenWordsNeverInsideOne() {
        let text = "The plan check counts the minutes of every timed section and compares them with the lesson's length."
        let wrapped = TextWrapper.wrap(text, width: 30)
        #expect(widths(wrapped).allSatisfy { $0 <= 30 }, "\(wrapped)")
        let words = text.split(separator: " ")
        #expect(wrapped.split(whereSeparator: { $0 == " " || $0 == "\n" }) == words, "no word was split or lost")
        #expect(!wrapped.contains(" \n"), "no trailing space before a break")
        #expect(wrapped.hasPrefix("The plan check counts the\nminutes"))
    }

    @Test func onlyAWordLongerThanTheWidthIsSplit() {
        let wrapped = TextWrapper.wrap("see /tmp/a-very-long-folder-name-that-does-not-fit/plan.txt now", width: 20)
        #expect(widths(wrapped).allSatisfy { $0 <= 20 }, "\(wrapped)")
        #expect(
            wrapped.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " ", with: "")
                == "see/tmp/a-very-long-folder-name-that-does-not-fit/plan.txtnow")
        #expect(wrapped.hasPrefix("see\n/tmp/"), "the long word starts on its own line")
    }

    @Test func wideCharactersAreMeasuredAsTwoColumns() {
        let text = (0..<11).map { _ in "分数" }.joined(separator: " ")  // 11 × 4 + 10 = 54 columns
        let wrapped = TextWrapper.wrap(text, width: 20)
        #expect(widths(wrapped) == [19, 19, 14], "\(wrapped)")
        let emoji = TextWrapper.wrap("🍕🍕🍕🍕🍕🍕", width: 5)
        #expect(widths(emoji) == [4, 4, 4], "a word of emoji splits between them, never through one")
    }

    @Test func listItemsHangUnderTheirText() {
        let wrapped = TextWrapper.wrap("   ✗ Exit Ticket: 1 prompt, but the framework asks for exactly 3 prompts", width: 40)
        #expect(wrapped == "   ✗ Exit Ticket: 1 prompt, but the\n     framework asks for exactly 3\n     prompts")
        let numbered = TextWrapper.wrap("12. Ask the class which shape holds more water and why", width: 30)
        #expect(numbered == "12. Ask the class which shape\n    holds more water and why")
    }

    @Test func helpTablesHangUnderTheSecondColumn() {
        let row = "  --max-retries N         retries after a failure before any text: 429, 5xx, timeouts (default 2)"
        let wrapped = TextWrapper.wrap(row, width: 60)
        #expect(
            wrapped == """
                  --max-retries N         retries after a failure before any
                                          text: 429, 5xx, timeouts (default
                                          2)
                """)
        // A second column too far right for readable text falls back to the row's own indent.
        let wide = "  /export [materials] md|html|json [FILE]  write the plan as Markdown, a page or JSON"
        let fallback = TextWrapper.wrap(wide, width: 50)
        #expect(fallback.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }, "\(fallback)")
        #expect(widths(fallback).allSatisfy { $0 <= 50 })
    }

    @Test func stylesSurviveWrappingAndControlsAreCountedAsShown() {
        var text = StyledText("problem: ", style: .red)
        text.append("the server said \u{1B}[2J something rather long here")
        let wrapped = TextWrapper.wrap(text, width: 24)
        #expect(wrapped.runs.first?.style == .red)
        #expect(wrapped.plain == "problem: the server said\n␛[2J something rather\nlong here")
        #expect(!wrapped.rendered(colour: true).contains("\u{1B}[2J"))
    }

    @Test func tabsAreExpandedBeforeMeasuring() {
        let wrapped = TextWrapper.wrap("a\tb c d e f g h", width: 12)
        #expect(widths(wrapped).allSatisfy { $0 <= 12 }, "\(wrapped)")
        #expect(wrapped.hasPrefix("a       b c"))
    }
}
