/// A table of one line per row that fits a terminal's width: flexible columns are clipped with
/// `…` down to their minimum, then the columns marked droppable are left out, last first.
package struct TextTable: Sendable {
    /// One column: its header, and how far it may give way.
    package struct Column: Sendable {
        package var header: String
        /// The widest it is ever shown; nil: as wide as its widest cell.
        package var maximum: Int?
        /// The narrowest a flexible column is clipped to; a column without one is never clipped.
        package var minimum: Int?
        /// Whether the column is left out when the table cannot fit otherwise.
        package var droppable: Bool

        package init(_ header: String, maximum: Int? = nil, minimum: Int? = nil, droppable: Bool = false) {
            self.header = header
            self.maximum = maximum
            self.minimum = minimum
            self.droppable = droppable
        }
    }

    package var columns: [Column]
    package var rows: [[String]]

    package init(columns: [Column], rows: [[String]]) {
        self.columns = columns
        self.rows = rows
    }

    /// One cell whole for a pipe: sanitised, nothing clipped, a line break or tab inside it a space,
    /// so each row stays one line and each tab separates two cells.
    package static func wholeCell(_ text: String) -> String {
        let oneLine = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        return TerminalSanitizer.clean(oneLine)
    }

    /// The header and the rows, two spaces between columns, each line at most `width` columns
    /// when the fixed columns allow it. Cells are sanitised and kept to one line.
    package func render(width: Int) -> String {
        let cells = ([columns.map(\.header)] + rows).map { row in
            columns.indices.map { index in index < row.count ? TerminalSanitizer.cleanLine(row[index], limit: 400) : "" }
        }
        let natural = columns.indices.map { index in
            let widest = cells.map { DisplayWidth.of($0[index]) }.max() ?? 0
            return min(widest, columns[index].maximum ?? widest)
        }
        // Clip first; only when clipping to the minimums is not enough, leave droppable columns out.
        var shown = Array(columns.indices)
        var widths = natural
        while true {
            widths = natural
            func total() -> Int { shown.reduce(0) { $0 + widths[$1] } + 2 * max(0, shown.count - 1) }
            while total() > width {
                let flexible = shown.filter { index in columns[index].minimum.map { widths[index] > $0 } ?? false }
                guard let widest = flexible.max(by: { widths[$0] < widths[$1] }) else { break }
                widths[widest] -= 1
            }
            guard total() > width, let drop = shown.last(where: { columns[$0].droppable }) else { break }
            shown.removeAll { $0 == drop }
        }
        return cells.map { row in
            shown.enumerated().map { position, index in
                let cell = Self.clip(row[index], to: widths[index])
                let isLast = position == shown.count - 1
                return isLast ? cell : cell + String(repeating: " ", count: widths[index] - DisplayWidth.of(cell))
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// `text` cut to `width` columns, ending in `…` when something was cut.
    package static func clip(_ text: String, to width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        var kept = ""
        var used = 0
        for character in text {
            let next = DisplayWidth.of(character)
            if used + next > width - 1 { break }
            kept.append(character)
            used += next
        }
        return width > 0 ? kept + "…" : ""
    }
}
