/// One line of a line diff, so a teacher can see what a revision kept, added and dropped.
package enum DiffLine: Equatable, Sendable {
    case same(String)
    case added(String)
    case removed(String)

    /// The line's text without any marker.
    package var text: String {
        switch self {
        case .same(let text), .added(let text), .removed(let text): text
        }
    }

    /// Whether the line is an edit rather than shared context.
    package var isChange: Bool {
        if case .same = self { return false }
        return true
    }
}

/// A run of changes with the context around it, numbered like a unified-diff hunk.
package struct DiffHunk: Equatable, Sendable {
    /// First old line the hunk covers, 1-based; when ``oldCount`` is 0, the line after which lines were added.
    package var oldStart: Int
    /// Old lines the hunk covers (context and removed).
    package var oldCount: Int
    /// First new line the hunk covers, 1-based; when ``newCount`` is 0, the line after which lines were removed.
    package var newStart: Int
    /// New lines the hunk covers (context and added).
    package var newCount: Int
    /// The hunk's lines in order: context, then each changed block with removals before additions.
    package var lines: [DiffLine]

    package init(oldStart: Int, oldCount: Int, newStart: Int, newCount: Int, lines: [DiffLine]) {
        self.oldStart = oldStart
        self.oldCount = oldCount
        self.newStart = newStart
        self.newCount = newCount
        self.lines = lines
    }
}

/// A text's lines, each with a number that equal lines share, so that many versions of a plan
/// can be compared without hashing every line again for every pair (`replay` compares each turn
/// with the version before it, and hashing lines was about half of that work).
package struct NumberedLines: Sendable {
    package let lines: [String]
    /// One per line; equal when the lines are equal as Strings compare.
    let numbers: [Int]
}

/// Numbers the lines of many texts with one table, so each line is hashed once.
package struct LineNumbering: Sendable {
    private var numbers: [String: Int] = [:]

    package init() {}

    /// `text` split as ``LineDiff/diff(_:_:)`` splits it, with every line numbered.
    package mutating func number(_ text: String) -> NumberedLines {
        let lines = LineDiff.splitLines(text)
        let numbers = lines.map { line in
            let next = self.numbers.count
            return LineDiff.value(&self.numbers[line, default: next])
        }
        return NumberedLines(lines: lines, numbers: numbers)
    }
}

/// Compares two plan versions line by line, so `/diff` shows the fewest possible edits.
package enum LineDiff {
    /// A minimal edit script from `old` to `new` (Myers' O(ND) algorithm), removals before additions.
    ///
    /// Lines end at "\n"; "\r\n" counts as "\n", and a final newline does not start an empty line.
    package static func diff(_ old: String, _ new: String) -> [DiffLine] {
        diff(lines: splitLines(old), splitLines(new))
    }

    /// A minimal edit script between two arrays of lines, removals before additions.
    package static func diff(lines old: [String], _ new: [String]) -> [DiffLine] {
        searched(lines: old, new).script
    }

    /// ``diff(lines:_:)`` with the work its search did: lines matched plus diagonals tried. The
    /// tests bound it by the number of edits, so a search that grows with the lines fails without a stopwatch.
    static func searched(lines old: [String], _ new: [String]) -> (script: [DiffLine], work: Int) {
        // Common ends are cheap to match and make identical or lightly edited inputs linear.
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let oldMiddle = old[prefix..<(old.count - suffix)]
        let newMiddle = new[prefix..<(new.count - suffix)]

        var script: [DiffLine] = []
        script.reserveCapacity(old.count + new.count - prefix - suffix)
        script.append(contentsOf: old[..<prefix].map(DiffLine.same))
        let middle = middleScript(oldMiddle, newMiddle)
        script.append(contentsOf: middle.script)
        script.append(contentsOf: old[(old.count - suffix)...].map(DiffLine.same))
        return (script, middle.work)
    }

    /// The same script as ``diff(_:_:)`` gives for the two texts the lines were numbered from,
    /// comparing numbers instead of strings; both must come from one ``LineNumbering``.
    package static func diff(_ old: NumberedLines, _ new: NumberedLines) -> [DiffLine] {
        let a = old.numbers
        let b = new.numbers
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let oldMiddle = prefix..<(a.count - suffix)
        let newMiddle = prefix..<(b.count - suffix)

        var script: [DiffLine] = []
        script.reserveCapacity(a.count + b.count - prefix - suffix)
        script.append(contentsOf: old.lines[..<prefix].map(DiffLine.same))
        if oldMiddle.isEmpty {
            script.append(contentsOf: new.lines[newMiddle].map(DiffLine.added))
        } else if newMiddle.isEmpty {
            script.append(contentsOf: old.lines[oldMiddle].map(DiffLine.removed))
        } else {
            // Renumbered densely in order of first appearance, exactly as the string path numbers.
            var dense: [Int: Int] = [:]
            dense.reserveCapacity(oldMiddle.count)
            let oldIDs = a[oldMiddle].map { number in
                let next = dense.count
                return value(&dense[number, default: next])
            }
            let newIDs = b[newMiddle].map { dense[$0] ?? -1 }
            script.append(
                contentsOf: middleScript(
                    old.lines[oldMiddle], oldIDs, new.lines[newMiddle], newIDs, distinct: dense.count
                ).script)
        }
        script.append(contentsOf: old.lines[(a.count - suffix)...].map(DiffLine.same))
        return script
    }

    /// Groups changes with `context` unchanged lines around them, merging groups whose context touches.
    package static func hunks(_ lines: [DiffLine], context: Int = 2) -> [DiffHunk] {
        let context = max(0, context)
        let changes = lines.indices.filter { lines[$0].isChange }
        guard var first = changes.first else { return [] }

        // Ranges of `lines` to show, each from a change's leading context to the last change's trailing context.
        var ranges: [Range<Int>] = []
        var last = first
        for index in changes.dropFirst() {
            if index - last - 1 > 2 * context {
                ranges.append(max(0, first - context)..<min(lines.count, last + context + 1))
                first = index
            }
            last = index
        }
        ranges.append(max(0, first - context)..<min(lines.count, last + context + 1))

        // Old and new line numbers of every script position, counted once in a single pass.
        var hunks: [DiffHunk] = []
        var oldBefore = 0
        var newBefore = 0
        var position = 0
        for range in ranges {
            while position < range.lowerBound {
                switch lines[position] {
                case .same:
                    oldBefore += 1
                    newBefore += 1
                case .removed: oldBefore += 1
                case .added: newBefore += 1
                }
                position += 1
            }
            let slice = Array(lines[range])
            let counts = summary(slice)
            let sameCount = slice.count - counts.added - counts.removed
            let oldCount = sameCount + counts.removed
            let newCount = sameCount + counts.added
            hunks.append(
                DiffHunk(
                    oldStart: oldCount == 0 ? oldBefore : oldBefore + 1, oldCount: oldCount,
                    newStart: newCount == 0 ? newBefore : newBefore + 1, newCount: newCount,
                    lines: slice))
        }
        return hunks
    }

    /// How many lines a script adds and removes, for a one-line summary after a revision.
    package static func summary(_ lines: [DiffLine]) -> (added: Int, removed: Int) {
        var added = 0
        var removed = 0
        for line in lines {
            switch line {
            case .added: added += 1
            case .removed: removed += 1
            case .same: break
            }
        }
        return (added, removed)
    }

    /// Splits on "\n", dropping a "\r" before it, so files saved on Windows compare equal to the rest.
    static func splitLines(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        var lines: [String] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            var end = index
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            lines.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = index + 1
        }
        if start < bytes.count {
            lines.append(String(decoding: bytes[start...], as: UTF8.self))
        }
        return lines
    }

    /// Reads a value through `inout`, so `ids[line, default: next]` finds or inserts with one lookup.
    static func value(_ id: inout Int) -> Int { id }

    /// The script for the part between the common ends, where the real search happens.
    private static func middleScript(_ old: ArraySlice<String>, _ new: ArraySlice<String>) -> (script: [DiffLine], work: Int) {
        if old.isEmpty { return (new.map(DiffLine.added), 0) }
        if new.isEmpty { return (old.map(DiffLine.removed), 0) }

        // Lines become small integers so the inner loop compares numbers, not strings.
        // One hash per line: hashing a non-ASCII String normalizes it, and `replay` diffs every turn.
        var ids: [String: Int] = [:]
        ids.reserveCapacity(old.count)
        let oldIDs = old.map { line in
            let next = ids.count
            return Self.value(&ids[line, default: next])
        }
        let newIDs = new.map { ids[$0] ?? -1 }
        return middleScript(old, oldIDs, new, newIDs, distinct: ids.count)
    }

    /// The script for non-empty middles whose lines are numbered 0..<distinct in order of first
    /// appearance on the old side, and new lines the old side lacks numbered -1.
    private static func middleScript(
        _ old: ArraySlice<String>, _ oldIDs: [Int], _ new: ArraySlice<String>, _ newIDs: [Int], distinct: Int
    ) -> (script: [DiffLine], work: Int) {
        var inNew = [Bool](repeating: false, count: distinct)
        for id in newIDs where id >= 0 { inNew[id] = true }

        // A line found on only one side can never be matched, so leaving it out keeps the result
        // minimal and shrinks the search; whole rewrites then cost nothing.
        let oldKept = oldIDs.indices.filter { inNew[oldIDs[$0]] }
        let newKept = newIDs.indices.filter { newIDs[$0] >= 0 }
        var solver = MyersSolver(a: oldKept.map { oldIDs[$0] }, b: newKept.map { newIDs[$0] })
        solver.solve()

        var oldMatched = [Bool](repeating: false, count: old.count)
        var newMatched = [Bool](repeating: false, count: new.count)
        for (index, matched) in solver.aMatched.enumerated() where matched { oldMatched[oldKept[index]] = true }
        for (index, matched) in solver.bMatched.enumerated() where matched { newMatched[newKept[index]] = true }

        // Walking both sides and emitting unmatched old lines first puts removals before additions.
        var script: [DiffLine] = []
        script.reserveCapacity(old.count + new.count)
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, !oldMatched[i] {
                script.append(.removed(old[old.startIndex + i]))
                i += 1
            } else if j < new.count, !newMatched[j] {
                script.append(.added(new[new.startIndex + j]))
                j += 1
            } else {
                script.append(.same(old[old.startIndex + i]))
                i += 1
                j += 1
            }
        }
        return (script, solver.work)
    }
}

/// Myers' linear-space divide and conquer: finds a middle snake, then solves each side of it.
private struct MyersSolver {
    let a: [Int]
    let b: [Int]
    private(set) var aMatched: [Bool]
    private(set) var bMatched: [Bool]
    /// Lines matched at the ends of each sub-problem, plus diagonals tried and lines compared along them.
    private(set) var work = 0
    /// Furthest-reaching x per diagonal, forward and from the end; shared by every sub-problem.
    private var forward: [Int]
    private var backward: [Int]

    init(a: [Int], b: [Int]) {
        self.a = a
        self.b = b
        aMatched = [Bool](repeating: false, count: a.count)
        bMatched = [Bool](repeating: false, count: b.count)
        // Room for diagonals -(limit + 1) ... limit + 1 of the largest sub-problem.
        let size = a.count + b.count + 5
        forward = [Int](repeating: 0, count: size)
        backward = [Int](repeating: 0, count: size)
    }

    mutating func solve() {
        solve(aLow: 0, aHigh: a.count, bLow: 0, bHigh: b.count)
    }

    private mutating func solve(aLow: Int, aHigh: Int, bLow: Int, bHigh: Int) {
        let start = (a: aLow, aHigh: aHigh)
        var aLow = aLow
        var aHigh = aHigh
        var bLow = bLow
        var bHigh = bHigh
        while aLow < aHigh, bLow < bHigh, a[aLow] == b[bLow] {
            match(aLow, bLow)
            aLow += 1
            bLow += 1
        }
        while aLow < aHigh, bLow < bHigh, a[aHigh - 1] == b[bHigh - 1] {
            match(aHigh - 1, bHigh - 1)
            aHigh -= 1
            bHigh -= 1
        }
        work += (aLow - start.a) + (start.aHigh - aHigh)
        // With one side empty the rest is all insertions or all deletions, which stay unmatched.
        guard aLow < aHigh, bLow < bHigh else { return }

        guard let snake = middleSnake(aLow: aLow, aHigh: aHigh, bLow: bLow, bHigh: bHigh) else { return }
        solve(aLow: aLow, aHigh: snake.x, bLow: bLow, bHigh: snake.y)
        for step in 0..<(snake.u - snake.x) { match(snake.x + step, snake.y + step) }
        solve(aLow: snake.u, aHigh: aHigh, bLow: snake.v, bHigh: bHigh)
    }

    private mutating func match(_ i: Int, _ j: Int) {
        aMatched[i] = true
        bMatched[j] = true
    }

    /// The snake (x, y)→(u, v) in the middle of an optimal path, in absolute indices.
    ///
    /// Only called when both ranges are non-empty and their first and last elements differ.
    private mutating func middleSnake(aLow: Int, aHigh: Int, bLow: Int, bHigh: Int)
        -> (x: Int, y: Int, u: Int, v: Int)?
    {
        let n = aHigh - aLow
        let m = bHigh - bLow
        let delta = n - m
        let odd = delta % 2 != 0
        let limit = (n + m + 1) / 2
        // Diagonal k is stored at k + offset; k never leaves -limit - 1 ... limit + 1.
        let offset = limit + 1
        forward[offset + 1] = 0
        backward[offset + 1] = 0

        for d in 0...limit {
            // Forward: furthest x reached on diagonal k = x - y with d edits from the start.
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && forward[offset + k - 1] < forward[offset + k + 1]))
                    ? forward[offset + k + 1] : forward[offset + k - 1] + 1
                var y = x - k
                let startX = x
                let startY = y
                while x < n, y < m, a[aLow + x] == b[bLow + y] {
                    x += 1
                    y += 1
                }
                work += 1 + x - startX
                forward[offset + k] = x
                // The reverse search on diagonal delta - k has used d - 1 edits; overlapping means done.
                let reverseK = delta - k
                if odd, reverseK >= -(d - 1), reverseK <= d - 1, x + backward[offset + reverseK] >= n {
                    return (aLow + startX, bLow + startY, aLow + x, bLow + y)
                }
            }
            // Backward: the same search on both sequences reversed; diagonal k here is delta - k forward.
            for k in stride(from: -d, through: d, by: 2) {
                var x =
                    (k == -d || (k != d && backward[offset + k - 1] < backward[offset + k + 1]))
                    ? backward[offset + k + 1] : backward[offset + k - 1] + 1
                var y = x - k
                let startX = x
                let startY = y
                while x < n, y < m, a[aHigh - 1 - x] == b[bHigh - 1 - y] {
                    x += 1
                    y += 1
                }
                work += 1 + x - startX
                backward[offset + k] = x
                let forwardK = delta - k
                if !odd, forwardK >= -d, forwardK <= d, x + forward[offset + forwardK] >= n {
                    return (aHigh - x, bHigh - y, aHigh - startX, bHigh - startY)
                }
            }
        }
        // Unreachable: the searches always meet by d = ceil((n + m) / 2); leaving the range
        // unmatched would still give a valid, if longer, script.
        return nil
    }
}
