import Foundation
import Testing

@testable import LessonPlanDocuments

@Suite struct LineDiffTests {
    @Test func identicalTextIsAllSame() {
        let text = "Learning Objective\nStudents can add fractions.\n\nMaterials"
        #expect(
            LineDiff.diff(text, text) == [
                .same("Learning Objective"), .same("Students can add fractions."), .same(""), .same("Materials"),
            ])
        #expect(LineDiff.hunks(LineDiff.diff(text, text)).isEmpty)
        #expect(LineDiff.summary(LineDiff.diff(text, text)) == (0, 0))
    }

    @Test func emptyToTextAddsEveryLine() {
        #expect(LineDiff.diff("", "a\nb\n") == [.added("a"), .added("b")])
        #expect(LineDiff.diff("", "") == [])
    }

    @Test func textToEmptyRemovesEveryLine() {
        #expect(LineDiff.diff("a\nb", "") == [.removed("a"), .removed("b")])
    }

    @Test func changeInTheMiddleRemovesThenAdds() {
        let old = "one\ntwo\nthree\nfour\nfive"
        let new = "one\ntwo\n3\nfour\nfive"
        #expect(
            LineDiff.diff(old, new) == [
                .same("one"), .same("two"), .removed("three"), .added("3"), .same("four"), .same("five"),
            ])
    }

    @Test func changedBlockListsAllRemovalsBeforeAdditions() {
        let diff = LineDiff.diff("a\nx\ny\nz\nb", "a\nX\nY\nb")
        #expect(
            diff == [.same("a"), .removed("x"), .removed("y"), .removed("z"), .added("X"), .added("Y"), .same("b")])
    }

    @Test func movedBlockIsOneRemovalAndOneAdditionPerLine() {
        let block = ["Exit Ticket", "Name two fractions.", "Explain why."]
        let rest = ["Learning Objective", "Add fractions.", "Materials", "Paper", "Warm-Up (5 min)", "Count."]
        let old = (block + rest).joined(separator: "\n")
        let new = (rest + block).joined(separator: "\n")
        let diff = LineDiff.diff(old, new)
        // Moving three lines past six costs three removals and three additions, no more.
        #expect(LineDiff.summary(diff) == (3, 3))
        #expect(diff.compactMap { if case .same(let t) = $0 { t } else { nil } } == rest)
        #expect(applied(diff).old == block + rest)
        #expect(applied(diff).new == rest + block)
    }

    @Test func crlfAndLfCompareEqual() {
        #expect(LineDiff.diff("a\r\nb\r\n", "a\nb") == [.same("a"), .same("b")])
        #expect(LineDiff.diff("a\r\nb", "a\r\nc") == [.same("a"), .removed("b"), .added("c")])
    }

    @Test func finalNewlineDoesNotAddAnEmptyLine() {
        #expect(LineDiff.diff("a\n", "a") == [.same("a")])
        #expect(LineDiff.diff("a\n\n", "a") == [.same("a"), .removed("")])
    }

    @Test func whollyDifferentTextsRemoveEverythingThenAdd() {
        #expect(LineDiff.diff("a\nb", "c\nd") == [.removed("a"), .removed("b"), .added("c"), .added("d")])
    }

    /// Myers' script must be as short as the LCS says is possible; checked against a plain DP oracle.
    @Test func editCountEqualsTheLCSMinimumOnRandomInputs() {
        var generator = SplitMix64(seed: 0x5EED_1E55)
        let alphabet = ["a", "b", "c", "d", ""]
        for _ in 0..<400 {
            let alphabetSize = Int.random(in: 2...alphabet.count, using: &generator)
            let old = (0..<Int.random(in: 0...14, using: &generator)).map { _ in
                alphabet[Int.random(in: 0..<alphabetSize, using: &generator)]
            }
            let new = (0..<Int.random(in: 0...14, using: &generator)).map { _ in
                alphabet[Int.random(in: 0..<alphabetSize, using: &generator)]
            }
            let diff = LineDiff.diff(lines: old, new)
            let summary = LineDiff.summary(diff)
            let lcs = lcsLength(old, new)
            #expect(summary.added + summary.removed == old.count + new.count - 2 * lcs, "old \(old) new \(new)")
            #expect(applied(diff).old == old)
            #expect(applied(diff).new == new)
            #expect(removalsComeFirst(diff), "old \(old) new \(new)")
        }
    }

    /// The search's work is bounded by the edits, not by the lines squared: counted (lines matched plus diagonals
    /// tried), not timed, so a busy machine cannot fail it. The time of `replay` over 10,000 turns, which diffs
    /// every turn, is budgeted by scripts/bench_harness.py.
    @Test func tenThousandLinesWithScatteredEditsAreQuick() {
        var generator = SplitMix64(seed: 42)
        let old = (0..<10_000).map { "Line \($0): students practise step \($0 % 37)." }
        var new = old
        for _ in 0..<150 {
            let index = Int.random(in: 0..<new.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: new[index] = "Edited \(index)"
            case 1: new.insert("Inserted near \(index)", at: index)
            default: new.remove(at: index)
            }
        }
        let (diff, work) = LineDiff.searched(
            lines: LineDiff.splitLines(old.joined(separator: "\n")), LineDiff.splitLines(new.joined(separator: "\n")))
        #expect(diff == LineDiff.diff(old.joined(separator: "\n"), new.joined(separator: "\n")))
        #expect(applied(diff).old == old)
        #expect(applied(diff).new == new)
        // Every edited line is on one side only and leaves the search, so the rest is matched in one pass.
        #expect(work <= old.count + new.count, "work \(work)")

        // Lines that repeat (37 of them) make the search real: still a tenth of Myers' (N + M)·D at worst, about
        // 0.1% of the N·M pairs a table of every pair would compare.
        var repeated = (0..<10_000).map { "Step \($0 % 37)." }
        let before = repeated
        for _ in 0..<150 {
            let index = Int.random(in: 0..<repeated.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: repeated[index] = "Step \(Int.random(in: 0..<37, using: &generator))."
            case 1: repeated.insert("Step \(Int.random(in: 0..<37, using: &generator)).", at: index)
            default: repeated.remove(at: index)
            }
        }
        let searched = LineDiff.searched(lines: before, repeated)
        #expect(applied(searched.script).old == before)
        #expect(applied(searched.script).new == repeated)
        let (added, removed) = LineDiff.summary(searched.script)
        #expect(added + removed <= 300)
        #expect(
            searched.work <= (before.count + repeated.count) * (added + removed) / 10,
            "work \(searched.work) for \(added + removed) edits")
    }

    @Test func tenThousandIdenticalOrRewrittenLinesAreQuick() {
        let old = (0..<10_000).map { "Line \($0)" }
        let rewritten = (0..<10_000).map { "Other \($0)" }
        // Common ends are matched before any search, and lines found on one side only are left out of it.
        let same = LineDiff.searched(lines: old, old)
        #expect(LineDiff.summary(same.script) == (0, 0) && same.work == 0)
        let other = LineDiff.searched(lines: old, rewritten)
        #expect(LineDiff.summary(other.script) == (10_000, 10_000) && other.work == 0)
        #expect(LineDiff.summary(LineDiff.diff(old.joined(separator: "\n"), rewritten.joined(separator: "\n"))) == (10_000, 10_000))
    }

    @Test func hunksShowContextAndNumberLikeUnifiedDiff() {
        let old = (1...20).map { "line \($0)" }
        var new = old
        new[4] = "line five"
        new[14] = "line fifteen"
        let diff = LineDiff.diff(lines: old, new)

        let hunks = LineDiff.hunks(diff, context: 2)
        #expect(hunks.count == 2)
        #expect(
            hunks.first
                == DiffHunk(
                    oldStart: 3, oldCount: 5, newStart: 3, newCount: 5,
                    lines: [
                        .same("line 3"), .same("line 4"), .removed("line 5"), .added("line five"),
                        .same("line 6"), .same("line 7"),
                    ]))
        #expect(hunks.last?.oldStart == 13 && hunks.last?.oldCount == 5)

        // Nine unchanged lines between the edits are within 2 × 5 lines of context, so one hunk.
        let merged = LineDiff.hunks(diff, context: 5)
        #expect(merged.count == 1)
        #expect(merged.first?.oldStart == 1 && merged.first?.oldCount == 20 && merged.first?.newCount == 20)

        let bare = LineDiff.hunks(diff, context: 0)
        #expect(bare.map(\.oldStart) == [5, 15] && bare.map(\.oldCount) == [1, 1])
    }

    @Test func hunksForPureAdditionsAndRemovalsUseLineBefore() {
        #expect(
            LineDiff.hunks(LineDiff.diff("", "a\nb"))
                == [DiffHunk(oldStart: 0, oldCount: 0, newStart: 1, newCount: 2, lines: [.added("a"), .added("b")])])
        #expect(
            LineDiff.hunks(LineDiff.diff("a\nb", ""))
                == [
                    DiffHunk(oldStart: 1, oldCount: 2, newStart: 0, newCount: 0, lines: [.removed("a"), .removed("b")])
                ])
        // An insertion after line 4 with no context: "-4,0 +5,1", as diff -U0 prints it.
        let inserted = LineDiff.hunks(LineDiff.diff("1\n2\n3\n4\n5", "1\n2\n3\n4\nnew\n5"), context: 0)
        #expect(inserted == [DiffHunk(oldStart: 4, oldCount: 0, newStart: 5, newCount: 1, lines: [.added("new")])])
    }
}

// MARK: Helpers

/// The old and new line lists a script describes, to check it is a valid edit script.
func applied(_ diff: [DiffLine]) -> (old: [String], new: [String]) {
    var old: [String] = []
    var new: [String] = []
    for line in diff {
        switch line {
        case .same(let text):
            old.append(text)
            new.append(text)
        case .removed(let text): old.append(text)
        case .added(let text): new.append(text)
        }
    }
    return (old, new)
}

/// Whether every run of changes lists its removals before its additions.
private func removalsComeFirst(_ diff: [DiffLine]) -> Bool {
    var seenAddition = false
    for line in diff {
        switch line {
        case .same: seenAddition = false
        case .added: seenAddition = true
        case .removed: if seenAddition { return false }
        }
    }
    return true
}

/// Longest common subsequence length by the textbook table, the oracle for minimality.
private func lcsLength(_ a: [String], _ b: [String]) -> Int {
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 1...a.count {
        for j in 1...b.count {
            table[i][j] = a[i - 1] == b[j - 1] ? table[i - 1][j - 1] + 1 : max(table[i - 1][j], table[i][j - 1])
        }
    }
    return table[a.count][b.count]
}

/// A small seeded generator so random cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
