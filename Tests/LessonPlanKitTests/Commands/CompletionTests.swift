import LessonPlanKit
import Testing

@Suite struct CompletionTests {
    @Test(arguments: [
        ("/reg", "/reg"), ("/regrade 3", "3"), ("/differentiate ", ""), ("", ""),
        ("/regrade 3–", "3–"), ("/x\tar", "ar"), ("é ü", "ü"),
    ])
    func currentWordIsTextAfterLastSpace(line: String, word: String) {
        #expect(Completion.currentWord(in: line) == word[...])
    }

    @Test func commonPrefixIsByWholeCharacters() {
        #expect(Completion.commonPrefix(of: ["advanced", "all"]) == "a")
        #expect(Completion.commonPrefix(of: ["3–5", "3–8"]) == "3–")
        #expect(Completion.commonPrefix(of: ["3–5", "3-5"]) == "3")
        #expect(Completion.commonPrefix(of: ["ell", "iep"]) == "")
        #expect(Completion.commonPrefix(of: ["only"]) == "only")
        #expect(Completion.commonPrefix(of: []) == "")
    }

    @Test func uniqueCommandGetsRestAndSpace() {
        let edit = Completion.apply(lineBeforeCursor: "/reg", candidates: ["/regrade"])
        #expect(edit == Completion.Edit(insertion: "rade "))
    }

    @Test func noSecondSpaceBeforeAnExistingOne() {
        let edit = Completion.apply(lineBeforeCursor: "/reg", lineAfterCursor: " 3–5", candidates: ["/regrade"])
        #expect(edit == Completion.Edit(insertion: "rade"))
    }

    @Test func completeCommandGetsOnlyTheSpace() {
        #expect(Completion.apply(lineBeforeCursor: "/help", candidates: ["/help"]) == Completion.Edit(insertion: " "))
    }

    @Test func uniqueArgumentInsertsRestWithEnDash() {
        let edit = Completion.apply(lineBeforeCursor: "/regrade 3", candidates: ["3–5"])
        #expect(edit == Completion.Edit(insertion: "–5"))
        #expect(edit.insertion.utf8.count == 4)
    }

    @Test func severalCandidatesInsertTheirSharedPrefix() {
        let edit = Completion.apply(lineBeforeCursor: "/differentiate ", candidates: ["advanced", "all"])
        #expect(edit == Completion.Edit(insertion: "a"))
    }

    @Test func severalCandidatesWithNothingSharedAreListed() {
        let choices = ["ell", "iep", "advanced", "all"]
        let edit = Completion.apply(lineBeforeCursor: "/differentiate ", candidates: choices)
        #expect(edit == Completion.Edit(choices: choices))
    }

    @Test func typedPrefixAlreadySharedListsTheCandidates() {
        let edit = Completion.apply(lineBeforeCursor: "/differentiate a", candidates: ["advanced", "all"])
        #expect(edit == Completion.Edit(choices: ["advanced", "all"]))
    }

    @Test func candidateThatDoesNotExtendTheWordReplacesIt() {
        // "3-" typed with a hyphen: delete both scalars, insert the en-dash form.
        let hyphen = Completion.apply(lineBeforeCursor: "/regrade 3-", candidates: ["3–5"])
        #expect(hyphen == Completion.Edit(deleteCount: 2, insertion: "3–5"))
        let upper = Completion.apply(lineBeforeCursor: "/REG", candidates: ["/regrade"])
        #expect(upper == Completion.Edit(deleteCount: 4, insertion: "/regrade "))
    }

    @Test func deleteCountIsInUnicodeScalarsNotBytes() {
        // libedit's buffer holds one wchar_t per scalar: "9–1" is 3 scalars but 5 bytes.
        let edit = Completion.apply(lineBeforeCursor: "/regrade 9–1", candidates: ["9–12"])
        #expect(edit == Completion.Edit(insertion: "2"))
        let replaced = Completion.apply(lineBeforeCursor: "/regrade 9—1", candidates: ["9–12"])
        #expect(replaced == Completion.Edit(deleteCount: 3, insertion: "9–12"))
    }

    @Test func noCandidatesMeansNoEdit() {
        #expect(Completion.apply(lineBeforeCursor: "/zzz", candidates: []).isEmpty)
        #expect(Completion.apply(lineBeforeCursor: "/regrade 3–5", candidates: ["3–5"]).isEmpty)
    }

    @Test func duplicatesCountOnce() {
        #expect(Completion.apply(lineBeforeCursor: "/q", candidates: ["/quit", "/quit"]) == Completion.Edit(insertion: "uit "))
    }

    @Test func columnsFillRowsWithinWidth() {
        let text = Completion.columns(["ell", "iep", "advanced", "all"], width: 24)
        #expect(text == "ell       iep\nadvanced  all\n")
        #expect(Completion.columns(["/differentiate"], width: 5) == "/differentiate\n")
        #expect(Completion.columns([], width: 80) == "")
    }
}
