import Foundation
import LessonPlanKit

#if canImport(Glibc)
    import Glibc
#endif

/// Writes to the terminal: plan text on stdout, messages on stderr, colour only where it helps.
/// Unchecked: the spinner timer is the only mutable state and is guarded by `lock`.
final class Console: @unchecked Sendable {
    let stdoutIsTTY = isatty(1) == 1
    let stderrIsTTY = isatty(2) == 1
    let stdinIsTTY = isatty(0) == 1
    /// Colour on stdout: a TTY, `NO_COLOR` unset, and a terminal that is not dumb.
    let colour: Bool
    private let lock = NSLock()
    private var spinner: (any DispatchSourceTimer)?

    private let columnsFromEnvironment: Int?

    init(environment: [String: String]) {
        colour = stdoutIsTTY && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        columnsFromEnvironment = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Columns to fit output to: the terminal's width, else `COLUMNS`, else 80.
    var columns: Int {
        var size = winsize()
        if stdoutIsTTY, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return columnsFromEnvironment ?? 80
    }

    /// Writes text to stdout as is.
    func out(_ text: String) {
        stopWaiting()
        Self.write(1, text)
    }

    /// Writes a line to stdout.
    func line(_ text: String = "") { out(text + "\n") }

    /// Writes one line to stderr.
    func note(_ text: String) {
        stopWaiting()
        Self.write(2, text + "\n")
    }

    /// A message in dim text on a colour terminal (used for footers and hints on stdout).
    func dim(_ text: String) -> String { colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    /// An error sentence, red on a colour terminal.
    func error(_ text: String) {
        stopWaiting()
        let shown = stderrIsTTY && colour ? "\u{1B}[31m\(text)\u{1B}[0m" : text
        Self.write(2, shown + "\n")
    }

    /// Shows a waiting indicator on stderr until the first text or message (TTY only).
    func startWaiting(_ label: String) {
        guard stderrIsTTY else { return }
        lock.lock()
        defer { lock.unlock() }
        guard spinner == nil else { return }
        let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
        let started = Date()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        var tick = 0
        timer.setEventHandler {
            let seconds = Int(Date().timeIntervalSince(started))
            Self.write(2, "\r\(frames[tick % frames.count]) \(label) \(seconds)s  (Ctrl-C cancels)\u{1B}[K")
            tick += 1
        }
        timer.schedule(deadline: .now(), repeating: .milliseconds(100))
        timer.resume()
        spinner = timer
    }

    /// Removes the waiting indicator, if one is showing.
    func stopWaiting() {
        lock.lock()
        let timer = spinner
        spinner = nil
        lock.unlock()
        guard let timer else { return }
        timer.cancel()
        // The handler runs on another queue: wait for it so its last frame cannot follow the clear.
        DispatchQueue.global().sync {}
        Self.write(2, "\r\u{1B}[K")
    }

    static func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

/// Formats the lines after a turn: version, tokens, seconds and the plan check, then one line per problem.
enum Footer {
    /// The footer line of a turn.
    static func text(for outcome: TurnOutcome) -> String {
        let current = outcome.current.map { "v\($0)" } ?? "v–"
        var parts: [String] = []
        switch outcome.status {
        case .completed:
            if let materials = outcome.materials {
                parts.append("handouts \(materials)")
            } else if let version = outcome.version {
                parts.append("v\(version)")
            } else {
                parts.append("not kept, still \(current)")
            }
        case .incomplete: parts.append("incomplete, still \(current)")
        case .failed: parts.append("failed, still \(current)")
        case .cancelled: parts.append("cancelled, still \(current)")
        }
        if let usage = outcome.usage {
            parts.append("\(grouped(usage.inputTokens)) in / \(grouped(usage.outputTokens)) out")
        }
        parts.append(String(format: "%.1f s", outcome.seconds))
        if !outcome.streamed { parts.append("not streamed") }
        if let check = outcome.check, outcome.kept != false {
            parts.append(check.passed ? "✓ plan check" : "✗ plan check: \(check.problems.count == 1 ? "1 problem" : "\(check.problems.count) problems")")
        }
        return "── " + parts.joined(separator: " · ")
    }

    /// The footer, then the plan check's problems one short line each, then why a follow-up was kept or not.
    static func lines(for outcome: TurnOutcome) -> [String] {
        var lines = [text(for: outcome)]
        if outcome.kept != false {
            lines += outcome.problems.map { "   ✗ \($0)" }
        }
        if let note = outcome.keepNote { lines.append("   \(note)") }
        return lines
    }

    /// The line announcing an automatic turn.
    static func text(for followUp: FollowUp) -> String {
        switch followUp {
        case .repair(let draft, let problems):
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            return "── repairing v\(draft) once: asking for the same plan without its \(count)…"
        case .readingLevel(let draft, let measure):
            return "── v\(draft) reads at grade \(measure.gradeText); grades \(measure.band.rawValue) expect \(measure.expectedText). Asking once more…"
        }
    }

    /// The reading levels of the plan a /regrade started from and of the one it ended with, a line each.
    static func levels(before: ReadingMeasure?, after: ReadingMeasure?) -> String? {
        guard let after else { return nil }
        func describe(_ measure: ReadingMeasure) -> String {
            let mark = measure.grade == nil ? "" : measure.inRange ? " ✓" : " ✗"
            return "grade \(measure.gradeText) (\(measure.band.rawValue) expects \(measure.expectedText))\(mark)"
        }
        var lines = ["Reading level of what students read (Flesch–Kincaid):"]
        if let before { lines.append("   before: \(describe(before))") }
        lines.append("   after:  \(describe(after))")
        return lines.joined(separator: "\n")
    }

    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }
}
