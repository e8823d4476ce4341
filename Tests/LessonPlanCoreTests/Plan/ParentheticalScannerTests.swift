import Foundation
import Testing

@testable import LessonPlanCore

/// `PlanDocument.withoutParentheticals` replaced the regex `\([^()]*\)`; the regex stays here as the oracle.
@Suite struct ParentheticalScannerTests {
    /// What `key` did before the hand-written scanner.
    static func oracle(_ text: String) -> String {
        text.replacing(/\([^()]*\)/, with: " ")
    }

    static let samples = [
        "", "(", ")", "()", ")(", "(()", "())", "(())", "((a)b)", "(a(b)c)", "a)b(c)d(e", "a(b)c(d)e",
        "Warm-Up (5 min)", "Homework / Extension (optional)", "Check for Understanding (CFU) (ongoing)",
        "Direct Instruction (I Do", "Guided Practice) (We Do)", "Engage (hook) — Explore (lab)",
        "((((x))))", "(x) (y) (z)", "no parentheses at all", "( spaced )", "Éxplore (naïve) café",
        "emoji (👩‍🏫 teacher) 🧪", "(\u{301}combining) mark", "e\u{301}(x)", "(\r\n)", "(\n)", "a (b\nc) d",
        "Closing (Exit Ticket)(3 prompts)", "[bracket] (paren) {brace}", "(a)(b)(c", "((a)(b))",
    ]

    @Test(arguments: samples) func matchesTheRegexOnSamples(_ text: String) {
        #expect(PlanDocument.withoutParentheticals(text) == Self.oracle(text))
    }

    /// Random strings over an alphabet heavy in parentheses, so nesting and stray brackets are common.
    @Test func matchesTheRegexOnRandomStrings() {
        let alphabet: [String] = ["(", ")", "(", ")", "a", "B", " ", "-", "é", "e\u{301}", "\u{301}", "👩‍🏫", "\n", "5"]
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<5_000 {
            let length = Int(generator.next() % 16)
            let text = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }.joined()
            #expect(PlanDocument.withoutParentheticals(text) == Self.oracle(text), "\(text.debugDescription)")
        }
    }

    @Test func keysOfFrameworkHeadingsAreUnchanged() throws {
        for name in PromptLibrary.builtIn.frameworkNames {
            for heading in try PromptLibrary.builtIn.framework(name).headings {
                #expect(PlanDocument.key(heading) == PlanDocument.keyWords(Self.oracle(heading)).joined())
            }
        }
    }
}
