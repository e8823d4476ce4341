/// How many terminal columns text takes: CJK and emoji take two, combining marks none.
package enum DisplayWidth {
    /// The columns one character (a grapheme cluster) takes on a terminal.
    package static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        // An emoji written with its presentation selector (☀️) or a flag or ZWJ sequence is drawn wide.
        if first.properties.isEmojiPresentation { return 2 }
        if character.unicodeScalars.count > 1, character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) {
            return 2
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        return isWide(first.value) ? 2 : 1
    }

    /// The columns a piece of text takes (tabs count as one; wrapping expands them first).
    package static func of<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth.txt, W and F, in blocks).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}

/// Wraps the tool's own prose to a terminal's width at word boundaries, keeping styles.
///
/// A line that fits is left alone. A longer one is broken between words; a word is split only
/// when it is longer than the whole width. Continuation lines hang under where the text of the
/// line begins, so lists and help tables stay readable:
/// - `  - item`, `  ✗ problem`, `  2. step`: under the item's text, after its marker;
/// - `  --flag VALUE    what it does`: under the second column (two or more spaces start it),
///   when that leaves room for at least ``minimumText`` columns;
/// - anything else: under its own leading spaces.
/// Text is sanitised before it is measured, so a control shown as `␛` or `<U+202E>` is counted as printed.
package enum TextWrapper {
    /// A hanging indent is given up when less than this many columns would remain for text.
    package static let minimumText = 24

    /// `text` with every line no wider than `width` columns (words longer than that excepted).
    package static func wrap(_ text: StyledText, width: Int) -> StyledText {
        if fits(text.plain, width: width) { return text }
        var out = StyledText()
        var line: [Cell] = []
        for run in text.runs {
            for character in TerminalSanitizer.clean(run.text) {
                if character == "\n" {
                    wrapLine(line, width: width, into: &out)
                    out.append("\n", style: nil)
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(Cell(character: character, style: run.style))
                }
            }
        }
        wrapLine(line, width: width, into: &out)
        return out
    }

    /// Whether every line surely fits without measuring: a character is never wider than its UTF-8
    /// bytes, so only tabs and what the sanitiser rewrites (`<U+202E>`) need a closer look.
    private static func fits(_ text: String, width: Int) -> Bool {
        if text.utf8.count <= width { return !text.contains("\t") && !TerminalSanitizer.needsWork(text) }
        var line = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") {
                line = 0
            } else {
                line += 1
                if line > width || byte == UInt8(ascii: "\t") { return false }
            }
        }
        return !TerminalSanitizer.needsWork(text)
    }

    /// Plain text wrapped the same way.
    package static func wrap(_ text: String, width: Int) -> String {
        wrap(StyledText(text), width: width).plain
    }

    /// One character with its style and its width on the terminal.
    private struct Cell {
        var character: Character
        var style: TextStyle?
        var width: Int
        var isSpace: Bool { character == " " }

        init(character: Character, style: TextStyle?, width: Int? = nil) {
            self.character = character
            self.style = style
            self.width = width ?? DisplayWidth.of(character)
        }
    }

    private static func wrapLine(_ line: [Cell], width: Int, into out: inout StyledText) {
        let cells = expandTabs(line)
        guard width > 0, columns(cells[...]) > width else {
            emit(cells[...], into: &out)
            return
        }
        let hang = hangingIndent(cells, width: width)
        let newLine = "\n" + String(repeating: " ", count: hang)
        var column = 0
        var index = 0
        // Each step takes the spaces before a word and the word.
        while index < cells.count {
            let spaceStart = index
            var wordStart = index
            while wordStart < cells.count, cells[wordStart].isSpace { wordStart += 1 }
            var wordEnd = wordStart
            while wordEnd < cells.count, !cells[wordEnd].isSpace { wordEnd += 1 }
            guard wordEnd > wordStart else { break }  // spaces at the end of a line are dropped
            var word = cells[wordStart..<wordEnd]
            let spaces = columns(cells[spaceStart..<wordStart])
            index = wordEnd
            if column > hang, column + spaces + columns(word) > width {
                out.append(newLine, style: nil)
                column = hang
            } else {
                emit(cells[spaceStart..<wordStart], into: &out)
                column += spaces
            }
            // Only a word wider than a whole line is split, where the line is full.
            while column + columns(word) > width {
                var taken = word.startIndex
                var room = width - column
                while taken < word.endIndex, word[taken].width <= room {
                    room -= word[taken].width
                    taken += 1
                }
                if taken == word.startIndex { taken += 1 }  // one character wider than the room: it goes anyway
                emit(word[..<taken], into: &out)
                word = word[taken...]
                out.append(newLine, style: nil)
                column = hang
            }
            emit(word, into: &out)
            column += columns(word)
        }
    }

    private static func columns(_ cells: ArraySlice<Cell>) -> Int {
        cells.reduce(0) { $0 + $1.width }
    }

    private static func emit(_ cells: ArraySlice<Cell>, into out: inout StyledText) {
        for cell in cells { out.append(String(cell.character), style: cell.style) }
    }

    /// Tabs become spaces up to the next multiple of 8, as a terminal shows them.
    private static func expandTabs(_ line: [Cell]) -> [Cell] {
        guard line.contains(where: { $0.character == "\t" }) else { return line }
        var expanded: [Cell] = []
        var column = 0
        for cell in line {
            if cell.character == "\t" {
                let count = 8 - column % 8
                expanded += Array(repeating: Cell(character: " ", style: cell.style, width: 1), count: count)
                column += count
            } else {
                expanded.append(cell)
                column += cell.width
            }
        }
        return expanded
    }

    /// Where continuation lines start: after a list marker, at a table's second column, or under the leading spaces.
    private static func hangingIndent(_ cells: [Cell], width: Int) -> Int {
        let lead = cells.prefix { $0.isSpace }.count
        let rest = String(cells[lead...].map(\.character))
        let fits = { (indent: Int) in width - indent >= min(minimumText, width / 2) }
        if let marker = listMarker(rest), fits(lead + marker) { return lead + marker }
        // A table row: text, two or more spaces, then the second column.
        var column = lead
        var sawText = false
        var index = lead
        while index < cells.count {
            if cells[index].isSpace, sawText, index + 1 < cells.count, cells[index + 1].isSpace {
                var next = index
                var nextColumn = column
                while next < cells.count, cells[next].isSpace {
                    nextColumn += cells[next].width
                    next += 1
                }
                if next < cells.count, fits(nextColumn) { return nextColumn }
                break
            }
            sawText = sawText || !cells[index].isSpace
            column += cells[index].width
            index += 1
        }
        return fits(lead) ? lead : 0
    }

    /// The width of a list marker and its space at the start of `text`: `- `, `* `, `• `, `✗ `, `✓ `, `12. `, `3) `.
    private static func listMarker(_ text: String) -> Int? {
        for marker in ["- ", "* ", "• ", "✗ ", "✓ ", "→ "] where text.hasPrefix(marker) { return DisplayWidth.of(marker) }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 3 else { return nil }
        let after = text.dropFirst(digits.count)
        guard after.hasPrefix(". ") || after.hasPrefix(") ") else { return nil }
        return digits.count + 2
    }
}
