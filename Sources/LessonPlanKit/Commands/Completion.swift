/// What Tab should do to the line, decided without a terminal so it can be tested.
///
/// The line editor hands over the text before and after the cursor plus the
/// candidates from the command table; this decides the edit. Counts are in Unicode
/// scalars because that is what libedit's wide-character buffer deletes.
package enum Completion {
    /// The edit Tab makes: delete some scalars before the cursor, insert text, or list choices.
    package struct Edit: Equatable, Sendable {
        /// Unicode scalars to delete immediately before the cursor (0 when only inserting).
        package var deleteCount: Int
        /// Text to insert at the cursor after the deletion.
        package var insertion: String
        /// Candidates to show below the line, when Tab cannot narrow the choice further.
        package var choices: [String]

        package init(deleteCount: Int = 0, insertion: String = "", choices: [String] = []) {
            self.deleteCount = deleteCount
            self.insertion = insertion
            self.choices = choices
        }

        /// Tab changes nothing and shows nothing: the caller should beep.
        package var isEmpty: Bool { deleteCount == 0 && insertion.isEmpty && choices.isEmpty }
    }

    /// The word being completed: everything after the last space or tab before the cursor.
    package static func currentWord(in lineBeforeCursor: String) -> Substring {
        guard let separator = lineBeforeCursor.lastIndex(where: isSeparator) else {
            return lineBeforeCursor[...]
        }
        return lineBeforeCursor[lineBeforeCursor.index(after: separator)...]
    }

    /// The longest prefix, in whole characters, that every candidate starts with.
    package static func commonPrefix(of candidates: [String]) -> String {
        guard var prefix = candidates.first.map({ Substring($0) }) else { return "" }
        for candidate in candidates.dropFirst() {
            let shared = zip(prefix, candidate).prefix(while: { $0.0 == $0.1 }).count
            prefix = prefix.prefix(shared)
            if prefix.isEmpty { break }
        }
        return String(prefix)
    }

    /// Decides Tab's edit for the word before the cursor.
    ///
    /// One candidate completes the word (a command name, the first word, also gets a
    /// trailing space so the argument can follow). Several candidates insert what they
    /// share; when they share nothing beyond the typed word, they are listed. A candidate
    /// that does not extend the typed text as written (case, or `3-` for `3–5`) replaces
    /// the word instead.
    /// - Parameters:
    ///   - lineBeforeCursor: the line up to the cursor.
    ///   - lineAfterCursor: the rest of the line, so no second space is added before one.
    ///   - candidates: full replacements for the current word, as the command table gives them.
    package static func apply(lineBeforeCursor: String, lineAfterCursor: String = "", candidates: [String]) -> Edit {
        let unique = deduplicated(candidates)
        guard !unique.isEmpty else { return Edit() }
        let word = currentWord(in: lineBeforeCursor)
        let isCommandWord = word.startIndex == lineBeforeCursor.startIndex
        let spaceFollows = lineAfterCursor.first.map(isSeparator) ?? false
        let suffix = (unique.count == 1 && isCommandWord && !spaceFollows) ? " " : ""

        let shared = unique.count == 1 ? unique[0] : commonPrefix(of: unique)
        if shared.hasPrefix(word) {
            let rest = String(shared.dropFirst(word.count))
            if unique.count == 1 { return Edit(insertion: rest + suffix) }
            return rest.isEmpty ? Edit(choices: unique) : Edit(insertion: rest)
        }
        if unique.count == 1 || shared.count >= word.count {
            return Edit(deleteCount: word.unicodeScalars.count, insertion: shared + suffix)
        }
        return Edit(choices: unique)
    }

    /// Lays candidates out in columns, row by row, within `width` terminal columns.
    ///
    /// Each line ends with a newline. Width is counted in characters, which is right for
    /// the ASCII and en-dash candidates the commands offer.
    package static func columns(_ candidates: [String], width: Int) -> String {
        guard !candidates.isEmpty else { return "" }
        let cell = (candidates.map(\.count).max() ?? 0) + 2
        let perRow = max(1, width / max(cell, 1))
        var text = ""
        for (index, candidate) in candidates.enumerated() {
            let endsRow = index % perRow == perRow - 1 || index == candidates.count - 1
            text += candidate
            text += endsRow ? "\n" : String(repeating: " ", count: cell - candidate.count)
        }
        return text
    }

    private static func isSeparator(_ character: Character) -> Bool {
        character == " " || character == "\t"
    }

    private static func deduplicated(_ candidates: [String]) -> [String] {
        var seen = Set<String>()
        return candidates.filter { seen.insert($0).inserted }
    }
}
