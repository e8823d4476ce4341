import CEditLine
import Foundation
import LessonPlanCore
import LessonPlanKit

/// What one prompt produced, so the REPL can tell a typed line from Ctrl-C and from Ctrl-D.
package enum LineReadResult: Equatable {
    /// A line as typed, without its trailing newline (may be empty).
    case line(String)
    /// Ctrl-C at an empty prompt. Lets the REPL count presses toward quitting.
    case interrupted
    /// Ctrl-C on a line with text: the text is discarded, as in bash; it never counts toward quitting.
    case cleared
    /// Ctrl-D on an empty line, or the end of piped input.
    case endOfInput
}

/// Reads one line of input per call; the REPL depends on this, not on libedit.
package protocol LineReader: AnyObject {
    func readLine(prompt: String) -> LineReadResult
}

/// Offers full replacements for the word before the cursor, given the line up to the cursor.
package typealias LineCompleter = (_ lineBeforeCursor: String) -> [String]

/// Picks the line editor for a terminal and plain line reading for pipes and files.
///
/// - Parameters:
///   - historyFile: where the terminal editor keeps history across runs; nil keeps it in memory.
///   - completer: candidates for Tab, derived by the caller from its command table.
package func makeLineReader(historyFile: URL?, completer: @escaping LineCompleter) -> LineReader {
    guard isatty(STDIN_FILENO) != 0 else { return PipedLineReader() }
    // `lessonplan … | tee plan.txt`: the prompt and the editing go to the terminal, the plans to stdout.
    guard let terminal = isatty(STDOUT_FILENO) != 0 ? cel_stdout() : (fopen("/dev/tty", "w") ?? cel_stderr()) else {
        return PipedLineReader(showsPrompt: true)
    }
    return EditLineReader(historyFile: historyFile, terminal: terminal, completer: completer)
        ?? PipedLineReader(showsPrompt: true)
}

/// Reads piped input line by line: no prompt, no echo, nothing written to history.
package final class PipedLineReader: LineReader {
    private let showsPrompt: Bool

    /// - Parameter showsPrompt: print the prompt first; only for a terminal libedit could not drive.
    package init(showsPrompt: Bool = false) {
        self.showsPrompt = showsPrompt
    }

    package func readLine(prompt: String) -> LineReadResult {
        if showsPrompt {
            print(TerminalSanitizer.clean(prompt), terminator: "")
            fflush(cel_stdout())
        }
        guard let line = Swift.readLine(strippingNewline: true) else { return .endOfInput }
        return .line(line)
    }
}

/// The interactive editor over libedit: emacs keys, Tab completion, persistent history, and
/// Ctrl-C that abandons the line instead of killing the program.
///
/// libedit calls back into C function pointers that cannot capture context, so the reader
/// registers itself as libedit's client data and the callbacks find it there.
package final class EditLineReader: LineReader {
    /// Entries kept in memory and in the file; enough for a term of lessons, small to rewrite.
    package static let historySize: Int32 = 1000

    private let editLine: OpaquePointer
    private let history: OpaquePointer
    private let historyPath: String?
    private let completer: LineCompleter
    /// The prompt of the current `readLine`, kept to measure how the line wraps.
    private var promptText = ""
    /// The C string the prompt callback returns; libedit re-reads it on every redraw.
    private var promptCString: UnsafeMutablePointer<CChar>?
    /// Set by the Ctrl-C binding so `readLine` discards the line libedit returns: whether it had text.
    fileprivate var interruptPending: Bool?
    /// Where the prompt and the line are drawn: stdout, or /dev/tty when stdout is a pipe.
    private let terminal: UnsafeMutablePointer<FILE>
    /// Multi-line pastes in the line being edited: the placeholder shown, and the text it stands for.
    private var pastes: [(placeholder: String, text: String)] = []
    /// The most a paste may hold; a longer one is discarded whole, so none of it runs as typed keys.
    package static let pasteLimit = 1_000_000
    private var reportedHistoryFailure = false

    /// Returns nil when libedit cannot set up the terminal.
    ///
    /// - Parameters:
    ///   - historyFile: loaded now and rewritten after every entered line (parent 0700, file 0600).
    ///   - completer: full candidates for the word before the cursor.
    package init?(historyFile: URL?, terminal: UnsafeMutablePointer<FILE>, completer: @escaping LineCompleter) {
        // libedit decides at el_init whether the terminal speaks UTF-8; without it, it drops non-ASCII.
        Self.useUTF8Locale()
        guard let history = history_init() else { return nil }
        guard let editLine = el_init(CommandLine.arguments.first ?? "lessonplan", cel_stdin(), terminal, cel_stderr())
        else {
            history_end(history)
            return nil
        }
        self.editLine = editLine
        self.history = history
        self.historyPath = historyFile?.path
        self.completer = completer
        self.terminal = terminal

        cel_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        // Setting the editor resets the key map, so it comes before every binding.
        cel_set_editor(editLine, "emacs")
        // With signal handling on, libedit saves and restores SIGINT around el_gets and can
        // capture SIG_IGN before libdispatch installs its handler; the REPL owns signals.
        cel_set_signal(editLine, 0)
        cel_set_prompt(editLine, editLinePrompt)

        cel_history_setsize(history, Self.historySize)
        cel_history_setunique(history, 1)
        cel_set_hist(editLine, history)
        if let historyPath {
            Self.prepareHistoryDirectory(for: historyPath)
            cel_history_load(history, historyPath)
        }

        cel_add_function(editLine, "lessonplan-complete", "Complete the command or argument", editLineComplete)
        cel_bind(editLine, "^I", "lessonplan-complete")
        cel_add_function(editLine, "lessonplan-interrupt", "Abandon the line", editLineInterrupt)
        cel_bind(editLine, "^C", "lessonplan-interrupt")
        // Bracketed paste: the terminal wraps pasted text in ESC[200~ … ESC[201~, so a paste of
        // several lines is one input, not one request per line.
        cel_add_function(editLine, "lessonplan-paste", "Take a bracketed paste as one input", editLinePaste)
        cel_bind(editLine, "\u{1B}[200~", "lessonplan-paste")
        // Ctrl-C arrives as a key while editing; outside el_gets the terminal still sends SIGINT.
        cel_setty(editLine, "-d", "-isig")
    }

    deinit {
        el_end(editLine)
        history_end(history)
        free(promptCString)
    }

    package func readLine(prompt: String) -> LineReadResult {
        promptText = TerminalSanitizer.clean(prompt)
        free(promptCString)
        promptCString = strdup(promptText)
        interruptPending = nil
        // Without EL_SIGNAL libedit does not hear SIGWINCH; pick up a resize between prompts.
        el_resize(editLine)

        var count: Int32 = 0
        fputs("\u{1B}[?2004h", terminal)
        let raw = el_gets(editLine, &count)
        fputs("\u{1B}[?2004l", terminal)
        fflush(terminal)
        guard let raw else {
            if count < 0, errno == EINTR { return .interrupted }
            // libedit echoes ^D and leaves the cursor there; end the line for the shell's prompt.
            fputs("\n", terminal)
            fflush(terminal)
            return .endOfInput
        }
        if let hadText = interruptPending {
            interruptPending = nil
            pastes = []
            return hadText ? .cleared : .interrupted
        }
        var line = String(decoding: UnsafeRawBufferPointer(start: raw, count: Int(max(count, 0))), as: UTF8.self)
        if line.hasSuffix("\n") { line.removeLast() }
        if line.hasSuffix("\r") { line.removeLast() }
        // Each placeholder still in the line becomes the text pasted there; one deleted while editing is dropped.
        for paste in pastes {
            if let range = line.range(of: paste.placeholder) { line.replaceSubrange(range, with: paste.text) }
        }
        pastes = []
        remember(line)
        return .line(line)
    }

    /// Adds a non-blank line to history and rewrites the file at once, so a crash loses nothing.
    private func remember(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace) else { return }
        cel_history_enter(history, line)
        guard let historyPath else { return }
        // Write beside the file and rename, so an interrupted save never truncates history.
        let temporary = historyPath + ".tmp\(getpid())"
        if cel_history_save(history, temporary) >= 0, chmod(temporary, 0o600) == 0,
            rename(temporary, historyPath) == 0
        {
            return
        }
        let reason = String(cString: strerror(errno))
        unlink(temporary)
        guard !reportedHistoryFailure else { return }
        reportedHistoryFailure = true
        fputs("lessonplan: cannot save history to \(historyPath): \(reason)\n", cel_stderr())
    }

    /// Called from the Tab binding: asks the completer and applies ``Completion/apply``'s edit.
    fileprivate func complete() -> UInt8 {
        guard let info = el_line(editLine)?.pointee, let buffer = info.buffer, let cursor = info.cursor,
            let last = info.lastchar
        else { return UInt8(CC_ERROR) }
        // el_line's pointers address the UTF-8 encoding of the line: byte offsets, not characters.
        let before = String(decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
        let after = String(decoding: UnsafeRawBufferPointer(start: cursor, count: last - cursor), as: UTF8.self)
        let edit = Completion.apply(lineBeforeCursor: before, lineAfterCursor: after, candidates: completer(before))
        if edit.isEmpty { return UInt8(CC_ERROR) }
        if edit.deleteCount > 0 { el_deletestr(editLine, Int32(edit.deleteCount)) }
        if !edit.insertion.isEmpty, el_insertstr(editLine, edit.insertion) != 0 { return UInt8(CC_ERROR) }
        guard !edit.choices.isEmpty else { return UInt8(CC_REFRESH) }
        showChoices(edit.choices, before: before, after: after)
        return UInt8(CC_REDISPLAY)
    }

    /// Prints choices under the line so that libedit's redisplay lands below them.
    ///
    /// CC_REDISPLAY clears and redraws rows relative to the row libedit believes the cursor
    /// is on, which is not the last row when the line wraps. So: first go below the line's
    /// last row (a bare newline from a mid-line cursor would print over the line's own
    /// continuation), print the list, then step down as many rows as the cursor sat below
    /// the prompt's first row; libedit moves back up by that many and redraws there.
    private func showChoices(_ choices: [String], before: String, after: String) {
        let reported = Int(cel_terminal_columns(editLine))
        let width = reported > 0 ? reported : 80
        let promptWidth = Self.displayWidth(Self.visiblePart(ofPrompt: promptText))
        let cursorRow = (promptWidth + Self.displayWidth(before)) / width
        let lastRow = (promptWidth + Self.displayWidth(before) + Self.displayWidth(after)) / width
        let text =
            String(repeating: "\n", count: lastRow - cursorRow + 1)
            + Completion.columns(choices, width: width)
            + String(repeating: "\n", count: cursorRow)
        fputs(text, terminal)
        fflush(terminal)
    }

    /// Terminal columns the text takes, as libedit counts them (control characters show as `^X`).
    private static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            let columns = cel_wcwidth(Int32(bitPattern: scalar.value))
            return total + (columns < 0 ? 2 : Int(columns))
        }
    }

    /// The prompt without the invisible sequences a caller wrapped in `\u{1}` markers.
    private static func visiblePart(ofPrompt prompt: String) -> String {
        prompt.split(separator: "\u{1}", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined()
    }

    /// Called from the Ctrl-C binding: shows `^C` after the text and ends el_gets.
    fileprivate func interrupt() -> UInt8 {
        let info = el_line(editLine)?.pointee
        interruptPending = info.map { ($0.lastchar ?? $0.buffer) != $0.buffer } ?? false
        // Replayed as keys so libedit itself moves to the end (^E), echoes ^C, and takes the
        // newline path (^J), leaving the cursor on a fresh line as Enter would.
        el_push(editLine, "\u{05}^C\n")
        return UInt8(CC_NORM)
    }

    /// Called after ESC[200~: reads the pasted text up to ESC[201~. It stays in the line being edited
    /// until Enter, as bash and Python do: one line as text, several as a placeholder such as
    /// `[3 lines pasted]` that `readLine` replaces with them. A paste over ``pasteLimit`` is read to
    /// its end and discarded whole, with one sentence.
    fileprivate func paste() -> UInt8 {
        let end = Array("\u{1B}[201~".unicodeScalars)
        var scalars: [Unicode.Scalar] = []
        var tail: [Unicode.Scalar] = []
        var overLimit = false
        var character: wchar_t = 0
        while el_wgetc(editLine, &character) == 1 {
            guard let scalar = Unicode.Scalar(UInt32(bitPattern: character)) else { continue }
            tail.append(scalar)
            if tail.count > end.count { tail.removeFirst() }
            if tail == end {
                if !overLimit { scalars.removeLast(end.count - 1) }
                break
            }
            guard !overLimit else { continue }
            scalars.append(scalar)
            // A paste of a book is not a command: past the limit, keep reading to its end but keep nothing.
            if scalars.count > Self.pasteLimit + end.count {
                overLimit = true
                scalars = []
            }
        }
        if overLimit {
            fputs("\nThe paste is over 1,000,000 characters, so none of it was taken; nothing was sent.\n", terminal)
            fflush(terminal)
            return UInt8(CC_REDISPLAY)
        }
        // Terminals send a pasted line end as CR; other controls are not text a command needs.
        var text = ""
        var previous: Unicode.Scalar?
        for scalar in scalars {
            switch scalar.value {
            case 0x0D: text.append("\n")
            case 0x0A where previous?.value == 0x0D: break
            case 0x0A, 0x09: text.unicodeScalars.append(scalar)
            case 0..<0x20, 0x7F...0x9F: break
            default: text.unicodeScalars.append(scalar)
            }
            previous = scalar
        }
        while text.hasSuffix("\n") { text.removeLast() }
        guard text.contains("\n") else {
            if !text.isEmpty, el_insertstr(editLine, text) != 0 { return UInt8(CC_ERROR) }
            return UInt8(CC_REFRESH)
        }
        let placeholder = Self.placeholder(
            lines: text.split(separator: "\n", omittingEmptySubsequences: false).count,
            taken: pastes.map(\.placeholder))
        if el_insertstr(editLine, placeholder) != 0 { return UInt8(CC_ERROR) }
        pastes.append((placeholder, text))
        return UInt8(CC_REFRESH)
    }

    /// `[3 lines pasted]`, numbered when the line already holds a paste of as many lines.
    package static func placeholder(lines: Int, taken: [String]) -> String {
        var candidate = "[\(lines) lines pasted]"
        var number = 2
        while taken.contains(candidate) {
            candidate = "[\(lines) lines pasted #\(number)]"
            number += 1
        }
        return candidate
    }

    /// Switches the character type to UTF-8 when the environment gives none (LANG unset,
    /// or naming a locale this machine lacks); only LC_CTYPE, so number formatting stays C.
    package static func useUTF8Locale() {
        setlocale(LC_CTYPE, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) == "UTF-8" { return }
        for name in ["C.UTF-8", "en_US.UTF-8"] where setlocale(LC_CTYPE, name) != nil {
            return
        }
    }

    /// Creates the history file's directory private to the user when it does not exist yet.
    private static func prepareHistoryDirectory(for path: String) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard !FileManager.default.fileExists(atPath: directory.path) else { return }
        try? FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// The reader libedit was given as client data.
    fileprivate static func from(_ editLine: OpaquePointer?) -> EditLineReader? {
        guard let editLine, let data = cel_get_clientdata(editLine) else { return nil }
        return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue()
    }

    fileprivate var prompt: UnsafeMutablePointer<CChar>? { promptCString }
}

// libedit takes plain C function pointers, so the callbacks are global functions that
// find their reader through EL_CLIENTDATA.

private let emptyPrompt: StaticString = ""

private func editLinePrompt(_ editLine: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    if let prompt = EditLineReader.from(editLine)?.prompt { return prompt }
    return UnsafeMutablePointer(mutating: UnsafeRawPointer(emptyPrompt.utf8Start).assumingMemoryBound(to: CChar.self))
}

private func editLineComplete(_ editLine: OpaquePointer?, _ key: Int32) -> UInt8 {
    EditLineReader.from(editLine)?.complete() ?? UInt8(CC_ERROR)
}

private func editLineInterrupt(_ editLine: OpaquePointer?, _ key: Int32) -> UInt8 {
    EditLineReader.from(editLine)?.interrupt() ?? UInt8(CC_ERROR)
}

private func editLinePaste(_ editLine: OpaquePointer?, _ key: Int32) -> UInt8 {
    EditLineReader.from(editLine)?.paste() ?? UInt8(CC_ERROR)
}
