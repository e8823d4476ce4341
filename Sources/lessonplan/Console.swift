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

    init(environment: [String: String]) {
        colour = stdoutIsTTY && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
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

/// Formats the one footer line after a turn: version, tokens, seconds.
enum Footer {
    static func text(for outcome: TurnOutcome, currentVersion: Int?) -> String {
        var parts: [String] = []
        switch outcome.status {
        case .completed: parts.append("v\(outcome.version ?? currentVersion ?? 0)")
        case .incomplete: parts.append("incomplete, still v\(currentVersion.map(String.init) ?? "–")")
        case .failed: parts.append("failed, still v\(currentVersion.map(String.init) ?? "–")")
        case .cancelled: parts.append("cancelled, still v\(currentVersion.map(String.init) ?? "–")")
        }
        if let usage = outcome.usage {
            parts.append("\(grouped(usage.inputTokens)) in / \(grouped(usage.outputTokens)) out")
        }
        parts.append(String(format: "%.1f s", outcome.seconds))
        return "── " + parts.joined(separator: " · ")
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
