import Foundation

/// Terminal columns a string takes: wide East Asian characters and emoji two, combining marks none.
package enum TextWidth {
    package static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (0x7F..<0xA0).contains(value) ? 0 : 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (0xFE00...0xFE0F).contains(value) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// Words of `text` wrapped to `width` columns; a word longer than the width is cut.
    package static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in text.split(whereSeparator: \.isWhitespace).map(String.init) {
            var word = word
            var size = columns(word)
            while size > width {
                if used > 0 {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                var head = ""
                var headSize = 0
                for character in word {
                    let next = columns(String(character))
                    if headSize + next > width { break }
                    head.append(character)
                    headSize += next
                }
                if head.isEmpty, let first = word.first { head = String(first) }
                lines.append(head)
                word = String(word.dropFirst(head.count))
                size = columns(word)
            }
            if word.isEmpty { continue }
            if used > 0, used + 1 + size > width {
                lines.append(line)
                line = ""
                used = 0
            }
            line += (used > 0 ? " " : "") + word
            used += (used > 0 ? 1 : 0) + size
        }
        if used > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` padded with spaces to `width` columns.
    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }
}

/// Quizzes and rubrics as plain text, for the terminal (through the sanitiser) and for Markdown handouts.
package enum AssessmentText {
    /// The quiz as numbered items with lettered options; with the key, each item's answer, the misconception
    /// behind each wrong answer and the feedback a student who picks it reads follow it, and the misconception
    /// list leads.
    package static func quiz(_ quiz: Quiz, withKey: Bool) -> String {
        var out: [String] = []
        if withKey {
            out.append("\(quiz.title) · \(counted(quiz.items.count, "item")) · answer key")
            if !quiz.misconceptions.isEmpty {
                out.append("Misconceptions it probes:")
                out += quiz.misconceptions.map { "- \($0)" }
            }
            out.append("")
        }
        for (index, item) in quiz.items.enumerated() {
            out.append("\(index + 1). \(item.stem)")
            for option in item.options { out.append("   \(option.letter)) \(option.text)") }
            if withKey {
                out.append("   Answer: \(item.answerLetters.isEmpty ? "none marked" : item.answerLetters.joined(separator: ", "))")
                for option in item.explainedDistractors {
                    out.append("   \(option.letter): \(option.misconceptionShown)")
                    if !option.feedback.isEmpty { out.append("      \(QuizOption.feedbackLabel)\(option.feedback)") }
                }
            }
            out.append("")
        }
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }

    /// The answer key alone, one item a line: `1. B) Carbon dioxide`.
    package static func answerKey(_ quiz: Quiz) -> [String] {
        quiz.items.enumerated().map { "\($0.offset + 1). \($0.element.keyText)" }
    }

    /// The rubric as a table that fits `width` columns, every cell wrapped inside its column.
    ///
    /// The criterion column takes up to a quarter of the width; the levels share the rest. When even
    /// twelve columns a level will not fit, each criterion is listed with its levels under it instead.
    package static func rubricTable(_ rubric: Rubric, width: Int) -> String {
        let count = rubric.levels.count
        guard count > 0 else { return "" }
        let columns = count + 1
        let borders = 3 * columns + 1
        let room = width - borders
        let criterionNatural = max(
            TextWidth.columns("Criterion"), rubric.criteria.map { TextWidth.columns($0.name) }.max() ?? 0)
        let criterionWidth = min(criterionNatural, max(10, room / 4))
        let levelRoom = room - criterionWidth
        guard levelRoom / count >= 12 else { return rubricList(rubric, width: width) }
        var widths = [criterionWidth] + Array(repeating: levelRoom / count, count: count)
        // Narrow levels give their spare columns to the others.
        let natural = (0..<count).map { column in
            ([rubric.levels[column].title] + rubric.criteria.map { $0.cells[column] }).map(TextWidth.columns).max() ?? 0
        }
        var spare = 0
        for column in 0..<count where natural[column] < widths[column + 1] {
            spare += widths[column + 1] - natural[column]
            widths[column + 1] = max(natural[column], 1)
        }
        let hungry = (0..<count).filter { natural[$0] > widths[$0 + 1] }
        for (position, column) in hungry.enumerated() {
            widths[column + 1] += spare / hungry.count + (position < spare % hungry.count ? 1 : 0)
        }
        func rule(_ left: String, _ middle: String, _ right: String) -> String {
            left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right
        }
        func row(_ cells: [String]) -> [String] {
            let wrapped = zip(cells, widths).map { TextWidth.wrap($0, width: $1) }
            let height = wrapped.map(\.count).max() ?? 1
            return (0..<height).map { line in
                "│ "
                    + zip(wrapped, widths).map { TextWidth.pad(line < $0.count ? $0[line] : "", to: $1) }
                    .joined(separator: " │ ") + " │"
            }
        }
        var out = [rule("┌", "┬", "┐")]
        out += row(["Criterion"] + rubric.levels.map(\.title))
        out.append(rule("╞", "╪", "╡").replacingOccurrences(of: "─", with: "═"))
        for (index, criterion) in rubric.criteria.enumerated() {
            if index > 0 { out.append(rule("├", "┼", "┤")) }
            out += row([criterion.name] + criterion.cells)
        }
        out.append(rule("└", "┴", "┘"))
        return out.joined(separator: "\n") + "\n"
    }

    /// The rubric for a narrow terminal: each criterion, then its levels indented and wrapped.
    private static func rubricList(_ rubric: Rubric, width: Int) -> String {
        var out: [String] = []
        for criterion in rubric.criteria {
            out += TextWidth.wrap(criterion.name, width: max(1, width))
            for (level, cell) in zip(rubric.levels, criterion.cells) {
                let lines = TextWidth.wrap("\(level.title): \(cell)", width: max(1, width - 4))
                out += lines.enumerated().map { ($0.offset == 0 ? "  " : "    ") + $0.element }
            }
            out.append("")
        }
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }
}
