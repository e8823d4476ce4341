import LessonPlanCore

/// Turns diff hunks into terminal text, so the executable only has to print one string.
package enum DiffRendering {
    /// What is shown when two versions are the same.
    package static let noChanges = "(no changes)"

    /// Renders hunks as `@@ -a,b +c,d @@` headers and "+ "/"- "/"  " lines joined by "\n".
    ///
    /// - Parameter hunks: the hunks to show, usually from ``LineDiff/hunks(_:context:)``.
    /// - Returns: the text without a final newline, additions green, removals red and headers cyan
    ///   where the terminal shows colour; ``noChanges`` when there are no hunks.
    package static func render(_ hunks: [DiffHunk]) -> StyledText {
        guard !hunks.isEmpty else { return StyledText(noChanges) }
        var out = StyledText()
        var first = true
        for hunk in hunks {
            if !first { out.append("\n") }
            first = false
            out.append("@@ -\(hunk.oldStart),\(hunk.oldCount) +\(hunk.newStart),\(hunk.newCount) @@", style: .cyan)
            for line in hunk.lines {
                out.append("\n")
                switch line {
                case .same(let text): out.append("  " + text)
                case .added(let text): out.append("+ " + text, style: .green)
                case .removed(let text): out.append("- " + text, style: .red)
                }
            }
        }
        return out
    }

    /// Diffs two versions and renders the result, the whole of what `/diff` shows.
    package static func render(old: String, new: String, context: Int = 2) -> StyledText {
        render(LineDiff.hunks(LineDiff.diff(old, new), context: context))
    }
}
