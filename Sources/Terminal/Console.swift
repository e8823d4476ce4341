import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writes to the terminal: plan text on stdout, messages on stderr, colour only where it helps.
/// Unchecked: the spinner timer is the only mutable state and is guarded by `lock`.
package final class Console: @unchecked Sendable {
    package let stdoutIsTTY = isatty(1) == 1
    package let stderrIsTTY = isatty(2) == 1
    package let stdinIsTTY = isatty(0) == 1
    /// Colour on stdout: a TTY, `NO_COLOR` unset, and a terminal that is not dumb.
    package let colour: Bool
    private let lock = NSLock()
    private var spinner: (any DispatchSourceTimer)?
    /// What the waiting line shows after its seconds; set while a structured answer arrives.
    private let detail = Mutex("")
    /// The state of the streamed answer being printed.
    private var streamSanitizer = TerminalSanitizer()
    /// The errno of the first failed write to stdout.
    private var stdoutFailure: Int32?

    private let columnsFromEnvironment: Int?

    package init(environment: [String: String]) {
        colour = stdoutIsTTY && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        columnsFromEnvironment = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }

    /// Columns to fit stdout to: the terminal's width, else `COLUMNS`, else 80.
    package var columns: Int { columns(of: 1) }

    /// Columns to fit help and tables to: the stream's terminal width, else `COLUMNS`, else 80
    /// (as `man` and Python's argparse do), so `--help` piped to a file or a pager reads at 80.
    package func columns(of fd: Int32) -> Int {
        terminalColumns(of: fd) ?? columnsFromEnvironment ?? 80
    }

    /// The width of the terminal on `fd`, or nil when it is not a terminal.
    private func terminalColumns(of fd: Int32) -> Int? {
        var size = winsize()
        guard isatty(fd) == 1, ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Messages wrap at a terminal only: piped, a sentence stays one line for grep and for logs.
    private func wrappedMessage(_ text: StyledText, fd: Int32) -> StyledText {
        terminalColumns(of: fd).map { TextWrapper.wrap(text, width: $0) } ?? text
    }

    /// Writes help text to stdout wrapped between words to ``columns``, piped or not.
    package func prose(_ text: String) { out(TextWrapper.wrap(StyledText(text), width: columns)) }

    /// Writes text to stdout through the sanitiser: nothing printed can be a terminal command.
    package func out(_ text: String) {
        stopWaiting()
        emit(1, TerminalSanitizer.clean(text))
    }

    /// Writes styled text to stdout: the tool's own colours around sanitised runs.
    package func out(_ text: StyledText) {
        stopWaiting()
        emit(1, text.rendered(colour: colour))
    }

    /// Writes a line of the tool's own prose to stdout, wrapped between words at a terminal.
    package func line(_ text: String = "") { line(StyledText(text)) }

    /// Writes a styled line to stdout, wrapped between words at a terminal.
    package func line(_ text: StyledText) { out(wrappedMessage(text + "\n", fd: 1)) }

    /// Writes bytes to stdout unchanged: only for data formats (JSON, HTML) going to a file or a program.
    package func raw(_ data: Data) {
        stopWaiting()
        emit(1, String(decoding: data, as: UTF8.self))
    }

    /// Prints an exported document: byte-exact when a program reads a page or data, sanitised on a terminal.
    package func document(_ data: Data, format: ExportFormat) {
        var data = data
        if data.last != UInt8(ascii: "\n") { data.append(UInt8(ascii: "\n")) }
        if !format.isReadable, !stdoutIsTTY { raw(data) } else { out(String(decoding: data, as: UTF8.self)) }
    }

    /// Writes one piece of a streamed answer; a CR split from its LF across pieces is still a line end.
    package func stream(_ piece: String) {
        stopWaiting()
        emit(1, lock.withLock { streamSanitizer.feed(piece) })
    }

    /// Ends a streamed answer, printing whatever the sanitiser held back.
    package func endStream() {
        let rest = lock.withLock { streamSanitizer.finish() }
        if !rest.isEmpty { emit(1, rest) }
    }

    /// Writes one line to stderr.
    package func note(_ text: String) {
        stopWaiting()
        emit(2, wrappedMessage(StyledText(text), fd: 2).rendered(colour: false) + "\n")
    }

    /// Writes one styled line to stderr.
    package func note(_ text: StyledText) {
        stopWaiting()
        emit(2, wrappedMessage(text, fd: 2).rendered(colour: colour && stderrIsTTY) + "\n")
    }

    /// A message in dim text on a colour terminal (used for footers and hints).
    package func dim(_ text: String) -> StyledText { StyledText(text, style: .dim) }

    /// An error sentence, red on a colour terminal.
    package func error(_ text: String) {
        stopWaiting()
        emit(2, wrappedMessage(StyledText(text, style: .red), fd: 2).rendered(colour: stderrIsTTY && colour) + "\n")
    }

    /// Asks the terminal to put `text` on the clipboard (OSC 52): only `/copy` calls this, with the plan.
    package func copyToClipboard(_ text: String) {
        emit(1, "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}")
    }

    /// Clears the terminal's screen and puts the cursor home, as Ctrl-L does (stdout, else stderr, when a terminal).
    package func clearScreen() {
        stopWaiting()
        if stdoutIsTTY { emit(1, "\u{1B}[H\u{1B}[2J") } else if stderrIsTTY { emit(2, "\u{1B}[H\u{1B}[2J") }
    }

    /// Whether writing to stdout failed (a full disk, a closed pipe); the run must then exit non-zero.
    package var outputFailed: Bool { lock.withLock { stdoutFailure != nil } }

    /// Whether stdout is a pipe whose reader went away (`replay … | head`): nothing is said, as git and gh say
    /// nothing, and the run ends with 141, the status of a program ended by SIGPIPE.
    package var outputClosed: Bool { lock.withLock { stdoutFailure == EPIPE } }

    /// Writes to stdout or stderr; the first failure on stdout is reported once on stderr and
    /// later writes to it are skipped, so `generate > /dev/full` ends with a sentence, not silence.
    private func emit(_ fd: Int32, _ text: String) {
        if fd == 1, outputFailed { return }
        let failure = Self.write(fd, text)
        guard fd == 1, let failure else { return }
        let first = lock.withLock { () -> Bool in
            defer { stdoutFailure = failure }
            return stdoutFailure == nil
        }
        if first, failure != EPIPE {
            let reason = String(cString: strerror(failure))
            Self.write(2, "Could not write to standard output (\(reason)); the output is incomplete.\n")
        }
    }

    /// Shows a waiting indicator on stderr until the first text or message (TTY only).
    package func startWaiting(_ label: String) {
        guard stderrIsTTY else { return }
        lock.lock()
        defer { lock.unlock() }
        guard spinner == nil else { return }
        let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
        let started = Date()
        let shownLabel = TerminalSanitizer.cleanLine(label)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        var tick = 0
        timer.setEventHandler {
            let seconds = Int(Date().timeIntervalSince(started))
            let detail = self.detail.withLock { $0 }
            Self.write(
                2, "\r\(frames[tick % frames.count]) \(shownLabel) \(seconds)s\(detail.isEmpty ? "" : " · " + detail)  (Ctrl-C cancels)\u{1B}[K")
            tick += 1
        }
        timer.schedule(deadline: .now(), repeating: .milliseconds(100))
        timer.resume()
        spinner = timer
    }

    /// What the waiting line shows after its seconds (`812 characters received`), until it stops.
    package func waitingDetail(_ text: String) {
        detail.withLock { $0 = TerminalSanitizer.cleanLine(text) }
    }

    /// Removes the waiting indicator, if one is showing.
    package func stopWaiting() {
        detail.withLock { $0 = "" }
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

    /// Writes all of `text` to `fd`, or returns the `errno` that stopped it.
    @discardableResult
    package static func write(_ fd: Int32, _ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
