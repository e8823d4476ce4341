import Foundation

/// The lesson's pacing drawn as text: one bar per timed section, placed on the lesson's clock.
///
/// Pure: it returns the text (with ANSI colours when asked) and the terminal front end prints it, as
/// ``DiffRendering`` does for diffs.
public enum PacingChart {
    /// Bar colours, one per section in turn (cyan, green, yellow, magenta, blue); red marks time past the end.
    static let palette = [36, 32, 33, 35, 34]

    /// The timeline of `segments` for a lesson of `lessonMinutes`.
    /// - Parameters:
    ///   - segments: Timed sections in plan order, from ``Pacing/segments(of:excluding:)``.
    ///   - untimed: Headings present in the plan that name no time, listed under the chart.
    ///   - width: Terminal columns to fit; the bars get what the labels leave (at least 12, at most 60).
    ///   - colour: Colour the bars with ANSI escapes.
    public static func render(
        _ segments: [PacingSegment], lessonMinutes: Int, untimed: [String] = [], width: Int = 80, colour: Bool = false
    ) -> String {
        guard !segments.isEmpty else {
            return "No section says how many minutes it takes, so there is no timeline to draw.\n"
        }
        let total = segments.last?.end ?? 0
        let span = max(lessonMinutes, total, 1)
        let labelWidth = min(max(segments.map { $0.heading.count }.max() ?? 0, 7), 28)
        let ranges = segments.map { "\($0.start)–\($0.end)" }
        let rangeWidth = ranges.map(\.count).max() ?? 0
        let lengths = segments.map { "\($0.minutes) min" }
        let lengthWidth = lengths.map(\.count).max() ?? 0
        // Wider than 60 cells a bar stops being easier to read, it only gets longer.
        let barWidth = min(60, max(12, width - labelWidth - rangeWidth - lengthWidth - 6))
        func column(_ minute: Int) -> Int { Int((Double(minute) * Double(barWidth) / Double(span)).rounded()) }
        let lessonEnd = column(lessonMinutes)

        var lines: [String] = []
        for (index, segment) in segments.enumerated() {
            let start = column(segment.start)
            let end = max(column(segment.end), start + 1)
            var bar = ""
            for cell in 0..<max(end, lessonEnd) {
                if cell < start {
                    bar += cell < lessonEnd ? "·" : " "
                } else if cell < end {
                    bar += cell < lessonEnd ? "█" : "░"
                } else {
                    bar += "·"
                }
            }
            if colour { bar = paint(bar, colour: palette[index % palette.count]) }
            let label = pad(clip(segment.heading, labelWidth), labelWidth)
            let range = String(repeating: " ", count: rangeWidth - ranges[index].count) + ranges[index]
            let length = String(repeating: " ", count: lengthWidth - lengths[index].count) + lengths[index]
            lines.append("\(label)  \(range)  \(length)  \(bar)")
        }
        let indent = String(repeating: " ", count: labelWidth + rangeWidth + lengthWidth + 6)
        let endLabel = "\(lessonMinutes) min"
        let axisGap = max(1, lessonEnd - 1 - endLabel.count)
        lines.append(indent + "0" + String(repeating: " ", count: axisGap) + endLabel)
        if total == lessonMinutes {
            lines.append("The sections add up to the lesson's \(lessonMinutes) minutes.")
        } else {
            lines.append("The sections add up to \(total) min, not the lesson's \(lessonMinutes)" + (total > lessonMinutes ? " (░ runs over)." : "."))
        }
        if !untimed.isEmpty {
            lines.append("No time given: \(untimed.joined(separator: ", ")).")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Colours the bar cells, leaving the dotted track dim and marking overrun red.
    private static func paint(_ bar: String, colour: Int) -> String {
        var out = ""
        var current: String?
        for cell in bar {
            let code: String? =
                switch cell {
                case "█": "\(colour)"
                case "░": "31"
                case "·": "2"
                default: nil
                }
            if code != current {
                if current != nil { out += "\u{1B}[0m" }
                if let code { out += "\u{1B}[\(code)m" }
                current = code
            }
            out.append(cell)
        }
        if current != nil { out += "\u{1B}[0m" }
        return out
    }

    private static func clip(_ text: String, _ limit: Int) -> String {
        text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
