/// Turns diff hunks into terminal text, so the executable only has to print one string.
public enum DiffRendering {
    /// What is shown when two versions are the same.
    public static let noChanges = "(no changes)"

    /// The ANSI sequences used when colour is on.
    enum ANSI {
        static let green = "\u{1B}[32m"
        static let red = "\u{1B}[31m"
        static let cyan = "\u{1B}[36m"
        static let reset = "\u{1B}[0m"
    }

    /// Renders hunks as `@@ -a,b +c,d @@` headers and "+ "/"- "/"  " lines joined by "\n".
    ///
    /// - Parameters:
    ///   - hunks: the hunks to show, usually from ``LineDiff/hunks(_:context:)``.
    ///   - colour: green additions, red removals and cyan headers, each coloured line ending in a reset.
    /// - Returns: the text without a final newline, or ``noChanges`` when there are no hunks.
    public static func render(_ hunks: [DiffHunk], colour: Bool = false) -> String {
        guard !hunks.isEmpty else { return noChanges }
        var out: [String] = []
        for hunk in hunks {
            let header = "@@ -\(hunk.oldStart),\(hunk.oldCount) +\(hunk.newStart),\(hunk.newCount) @@"
            out.append(colour ? ANSI.cyan + header + ANSI.reset : header)
            for line in hunk.lines {
                switch line {
                case .same(let text):
                    out.append("  " + text)
                case .added(let text):
                    out.append(colour ? ANSI.green + "+ " + text + ANSI.reset : "+ " + text)
                case .removed(let text):
                    out.append(colour ? ANSI.red + "- " + text + ANSI.reset : "- " + text)
                }
            }
        }
        return out.joined(separator: "\n")
    }

    /// Diffs two versions and renders the result, the whole of what `/diff` shows.
    public static func render(old: String, new: String, context: Int = 2, colour: Bool = false) -> String {
        render(LineDiff.hunks(LineDiff.diff(old, new), context: context), colour: colour)
    }
}
