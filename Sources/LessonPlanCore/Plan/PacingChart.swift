import Foundation

/// The lesson's pacing drawn as text: one bar per timed section, placed on the lesson's clock.
///
/// Pure: it returns styled text (colours as styles, never escape bytes) and the terminal front end prints it, as
/// ``DiffRendering`` does for diffs. Sections sit where the plan says (`5–17 min`); a section with only a
/// length follows the one before (starred where the plan mixes the two). A `│` marks the lesson's end in every row and
/// time past it is drawn `░`; gaps, overlaps and the overrun are said under the chart. Every line fits
/// `width` and prose wraps between words.
package enum PacingChart {
    /// Bar colours, one per section in turn; red marks time past the end.
    static let palette: [TextStyle] = [.cyan, .green, .yellow, .magenta, .blue]

    /// The timeline of `segments` for a lesson of `lessonMinutes`.
    /// - Parameters:
    ///   - segments: Timed sections in plan order, from ``Pacing/segments(of:excluding:)``.
    ///   - untimed: Headings present in the plan that name no time, listed under the chart.
    ///   - width: Terminal columns to fit; the bars get what the labels leave (at least 12, at most 60).
    package static func render(
        _ segments: [PacingSegment], lessonMinutes: Int, untimed: [String] = [], width: Int = 80
    ) -> StyledText {
        let width = max(width, 40)
        guard !segments.isEmpty else {
            return StyledText(wrap("No section says how many minutes it takes, so there is no timeline to draw.", width) + "\n")
        }
        let lesson = max(lessonMinutes, 1)
        let end = segments.map(\.end).max() ?? 0
        let span = max(lesson, end)
        // Stars tell stated times from placed ones only where the plan mixes them.
        let star = segments.contains { !$0.stated } && segments.contains { $0.stated }
        let ranges = segments.map { "\($0.start)–\($0.end)" + (star && !$0.stated ? "*" : "") }
        let rangeWidth = ranges.map(\.count).max() ?? 0
        let lengths = segments.map { "\($0.minutes) min" }
        let lengthWidth = lengths.map(\.count).max() ?? 0
        // Labels are clipped between words where they can be; the bars get what is left, at least 8 cells.
        let fixed = rangeWidth + lengthWidth + 6 + 1
        let wanted = min(max(segments.map { $0.heading.count }.max() ?? 0, 7), 28)
        let labelWidth = max(7, min(wanted, width - fixed - 12))
        // Wider than 60 cells a bar stops being easier to read, it only gets longer.
        let barWidth = min(60, max(8, width - labelWidth - fixed))
        func column(_ minute: Int) -> Int { Int((Double(minute) * Double(barWidth) / Double(span)).rounded()) }
        let lessonEnd = column(lesson)
        let cells = max(column(span), lessonEnd)

        var lines: [StyledText] = []
        for (index, segment) in segments.enumerated() {
            let start = column(segment.start)
            let stop = max(column(segment.end), start + 1)
            var bar = ""
            for cell in 0..<max(cells, stop) {
                if cell == lessonEnd { bar += "│" }
                if cell >= start && cell < stop {
                    bar += cell < lessonEnd ? "█" : "░"
                } else {
                    bar += cell < lessonEnd ? "·" : " "
                }
            }
            if lessonEnd >= max(cells, stop) { bar += "│" }
            while bar.hasSuffix(" ") { bar.removeLast() }
            let label = pad(clip(segment.heading, labelWidth), labelWidth)
            let range = String(repeating: " ", count: rangeWidth - ranges[index].count) + ranges[index]
            let length = String(repeating: " ", count: lengthWidth - lengths[index].count) + lengths[index]
            lines.append(StyledText("\(label)  \(range)  \(length)  ") + paint(bar, colour: palette[index % palette.count]))
        }
        let indent = String(repeating: " ", count: labelWidth + rangeWidth + lengthWidth + 6)
        let endLabel = "lesson ends at \(lessonMinutes) min"
        let mark = "0" + String(repeating: " ", count: max(0, lessonEnd - 1)) + "▲"
        if indent.count + mark.count + 1 + endLabel.count <= width {
            lines.append(StyledText(indent + mark + " " + endLabel))
        } else if lessonEnd - 2 >= endLabel.count {
            let gap = lessonEnd - 2 - endLabel.count
            lines.append(StyledText(indent + "0" + String(repeating: " ", count: gap) + endLabel + " ▲"))
        } else {
            lines.append(StyledText(indent + mark))
            let start = max(0, min(indent.count + lessonEnd - endLabel.count + 1, width - endLabel.count))
            lines.append(StyledText(String(repeating: " ", count: start) + endLabel))
        }
        lines += summary(segments, lessonMinutes: lessonMinutes, untimed: untimed, width: width)
        var chart = StyledText()
        for line in lines {
            chart.append(line)
            chart.append("\n")
        }
        return chart
    }

    /// The lines under the bars: whether the sections add up, the pacing's notes, and the untimed sections.
    private static func summary(_ segments: [PacingSegment], lessonMinutes: Int, untimed: [String], width: Int) -> [StyledText] {
        var lines: [StyledText] = []
        let end = segments.map(\.end).max() ?? 0
        let total = segments.map(\.minutes).reduce(0, +)
        if total == lessonMinutes && end <= lessonMinutes {
            lines.append(StyledText(wrap("The sections add up to the lesson's \(lessonMinutes) minutes.", width)))
        } else if total == lessonMinutes {
            lines.append(StyledText(wrap("The sections add up to the lesson's \(lessonMinutes) minutes, but not as placed.", width)))
        } else {
            lines.append(StyledText(wrap("The sections add up to \(total) min, not the lesson's \(lessonMinutes).", width)))
        }
        for note in Pacing.notes(segments, lessonMinutes: lessonMinutes) {
            if case .overrun = note {
                lines.append(StyledText(wrap("░ " + note.description, width)))
            } else {
                lines.append(StyledText(wrap(note.description, width)))
            }
        }
        if let footnote = Pacing.placementNote(segments) {
            lines.append(StyledText(wrap(footnote, width)))
        }
        if !untimed.isEmpty {
            lines.append(StyledText(wrap("No time given: \(untimed.joined(separator: ", ")).", width)))
        }
        return lines
    }

    /// Wraps prose at spaces so no line is wider than `width` and no word is split.
    static func wrap(_ text: String, _ width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// Colours the bar cells, leaving the dotted track dim and marking overrun and the lesson's end red.
    private static func paint(_ bar: String, colour: TextStyle) -> StyledText {
        var out = StyledText()
        for cell in bar {
            let style: TextStyle? =
                switch cell {
                case "█": colour
                case "░", "│": .red
                case "·": .dim
                default: nil
                }
            out.append(String(cell), style: style)
        }
        return out
    }

    /// `text` cut between words to fit `limit`, with an ellipsis when anything was left out.
    private static func clip(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        var kept = ""
        for word in text.split(separator: " ") {
            let next = kept.isEmpty ? String(word) : kept + " " + word
            if next.count + 1 > limit { break }
            kept = next
        }
        return kept.isEmpty ? String(text.prefix(max(1, limit - 1))) + "…" : kept + "…"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
