import LessonPlanCore
import Testing

@Suite struct TerminalSanitizerTests {
    /// The attacks of the issue, each with what the terminal must receive instead.
    static let attacks: [(name: String, input: String, shown: String)] = [
        ("OSC 52 clipboard", "a\u{1B}]52;c;SGFja2Vk\u{07}b", "a␛]52;c;SGFja2Vk␇b"),
        ("OSC 0 title", "\u{1B}]0;pwned\u{1B}\\", "␛]0;pwned␛\\"),
        ("OSC 8 hidden link", "\u{1B}]8;;http://evil.example\u{1B}\\click\u{1B}]8;;\u{1B}\\", "␛]8;;http://evil.example␛\\click␛]8;;␛\\"),
        ("clear screen", "\u{1B}[2J\u{1B}[H", "␛[2J␛[H"),
        ("cursor up", "x\u{1B}[3A", "x␛[3A"),
        ("C1 CSI", "\u{9B}31m", "<U+009B>31m"),
        ("C1 OSC", "\u{9D}0;t\u{9C}", "<U+009D>0;t<U+009C>"),
        ("bidi override", "gnp\u{202E}.exe", "gnp<U+202E>.exe"),
        ("bidi isolates", "\u{2066}a\u{2069}\u{200F}", "<U+2066>a<U+2069><U+200F>"),
        ("BEL BS DEL NUL", "\u{07}\u{08}\u{7F}\u{00}", "␇␈␡␀"),
        ("bare CR", "safe\rEVIL", "safe␍EVIL"),
    ]

    @Test(arguments: attacks.indices)
    func everyControlIsShownNotObeyed(_ index: Int) {
        let attack = Self.attacks[index]
        let shown = TerminalSanitizer.clean(attack.input)
        #expect(shown == attack.shown, "\(attack.name)")
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func plainPlanTextIsReturnedUnchanged() {
        let plan = "1. Warm-Up (5 min)\n\t• “Fractions” – 3–5 ✓ 🍕\nExit Ticket: café"
        #expect(TerminalSanitizer.clean(plan) == plan)
    }

    @Test func crlfReadsAsALineEndEvenWhenSplitAcrossPieces() {
        #expect(TerminalSanitizer.clean("one\r\ntwo\r") == "one\ntwo␍")
        var sanitizer = TerminalSanitizer()
        let pieces = ["one\r", "\ntwo\r", "x", "\r"]
        let shown = pieces.map { sanitizer.feed($0) }.joined() + sanitizer.finish()
        #expect(shown == "one\ntwo␍x␍")
    }

    @Test func anEscapeSplitAcrossStreamedPiecesIsStillCaught() {
        let hostile = "Plan \u{1B}]52;c;SGFja2Vk\u{07} \u{9B}2J done \u{202E}x"
        // Every split point, including inside multi-byte characters' neighbours.
        for cut in hostile.indices {
            var sanitizer = TerminalSanitizer()
            let shown =
                sanitizer.feed(String(hostile[..<cut])) + sanitizer.feed(String(hostile[cut...]))
                + sanitizer.finish()
            #expect(shown == TerminalSanitizer.clean(hostile))
            #expect(!shown.contains("\u{1B}") && !shown.contains("\u{9B}") && !shown.contains("\u{202E}"))
        }
    }

    @Test func aListingLineIsOneLineAndBounded() {
        let name = String(repeating: "n", count: 100_000) + "\n\u{1B}[2J"
        let shown = TerminalSanitizer.cleanLine(name, limit: 40)
        #expect(shown.count == 41 && shown.hasSuffix("…"))
        #expect(TerminalSanitizer.cleanLine("two\nlines\u{1B}") == "two⏎lines␛")
    }

    @Test func styledTextColoursOnlyTheToolsOwnRuns() {
        var text = StyledText("── v2", style: .dim)
        text.append(" \u{1B}]52;c;SGk=\u{07}")
        #expect(text.rendered(colour: true) == "\u{1B}[2m── v2\u{1B}[0m ␛]52;c;SGk=␇")
        #expect(text.rendered(colour: false) == "── v2 ␛]52;c;SGk=␇")
        #expect(text.plain == "── v2 \u{1B}]52;c;SGk=\u{07}")
    }
}
