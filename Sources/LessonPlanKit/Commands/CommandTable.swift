import Foundation

/// The one list of slash commands: dispatch, `/help` and Tab completion all read it.
package enum CommandTable {
    // Key paths into these metatypes (`all.map(\.name)`) crash the 6.3.1 compiler; use closures.
    package static let all: [any Command.Type] = [
        GenerateCommand.self,
        ShortenCommand.self,
        LengthenCommand.self,
        DifferentiateCommand.self,
        RegradeCommand.self,
        ReviseCommand.self,
        RedoCommand.self,
        StandardsCommand.self,
        FrameworkCommand.self,
        MaterialsCommand.self,
        UnitCommand.self,
        LessonCommand.self,
        QuizCommand.self,
        RubricCommand.self,
        ReviewCommand.self,
        ReteachCommand.self,
        CheckCommand.self,
        SourceCommand.self,
        ClassCommand.self,
        AccommodateCommand.self,
        RepairCommand.self,
        PacingCommand.self,
        LevelCommand.self,
        RetryCommand.self,
        ContinueCommand.self,
        UndoCommand.self,
        ShowCommand.self,
        HistoryCommand.self,
        SwitchCommand.self,
        ForkCommand.self,
        DiffCommand.self,
        EditCommand.self,
        SaveCommand.self,
        ExportCommand.self,
        SlidesCommand.self,
        CopyCommand.self,
        ClearCommand.self,
        HelpCommand.self,
        QuitCommand.self,
    ]

    /// The command with this name (without the slash), if any.
    package static func command(named name: String) -> (any Command.Type)? {
        all.first { $0.name == name.lowercased() }
    }

    /// Parses one line typed at the prompt. A line without a leading slash is a free-form revision.
    /// - Throws: ``CommandError`` for an unknown command, bad arguments, or a command that needs a plan first.
    package static func parse(_ line: String, context: CommandContext) throws(CommandError) -> any Command {
        try parse(resolve(line), line: line, context: context)
    }

    /// Parses the arguments of a command ``resolve(_:in:)`` found in `line`, against the session.
    package static func parse(
        _ resolved: (command: any Command.Type, arguments: String), line: String, context: CommandContext
    ) throws(CommandError) -> any Command {
        let (command, arguments) = resolved
        if command.needsPlan, context.currentVersion == nil {
            if !context.canSend {
                throw CommandError("/\(command.name) needs a plan, but \(SessionAdvice.noPlanNoKey)")
            }
            if command.name == ReviseCommand.name, !isSlashed(line) {
                throw CommandError("There is no plan to revise yet; type /generate to write one.")
            }
            throw CommandError("/\(command.name) needs a plan first; type /generate to write one.")
        }
        return try command.parse(arguments, context: context)
    }

    /// The command a line names and its arguments, checked against where it runs but not against the
    /// session: what can be checked before anything is sent.
    /// - Throws: ``CommandError`` for a name that is not a command, or a command that needs a terminal elsewhere.
    package static func resolve(_ line: String, in place: CommandPlace) throws(CommandError)
        -> (command: any Command.Type, arguments: String)
    {
        let resolved = try resolve(line)
        // Small talk is asked about at a terminal (by the runner); a script or `--then` cannot be asked.
        if place == .script || place == .then, resolved.command == ReviseCommand.self, SmallTalk.matches(line) {
            throw CommandError(SmallTalk.refusal(line))
        }
        if resolved.command.needsTerminal, !place.isTerminal {
            throw CommandError("/\(resolved.command.name) needs a teacher at a terminal, so it cannot run \(place.described).")
        }
        return resolved
    }

    /// The command a line names and its arguments, without looking at the session.
    /// - Throws: ``CommandError`` for a name that is not a command, with the nearest one.
    package static func resolve(_ line: String) throws(CommandError) -> (command: any Command.Type, arguments: String) {
        var trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        // `help`, `quit`, `exit` and `?` alone are what a newcomer types to get help or out: never a paid revision.
        if let command = bareWords[trimmed.lowercased()] { trimmed = command }
        guard trimmed.hasPrefix("/") else { return (ReviseCommand.self, trimmed) }
        let body = trimmed.dropFirst()
        let name = String(body.prefix { !$0.isWhitespace })
        let arguments = body.dropFirst(name.count).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let command = command(named: name) else {
            let hint = suggestion(for: name).map { "did you mean /\($0)? " } ?? ""
            throw CommandError("/\(name) is not a command; \(hint)type /help to list them.")
        }
        return (command, arguments)
    }

    private static func isSlashed(_ line: String) -> Bool {
        line.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("/")
    }

    /// The lines that run a command without the slash.
    static let bareWords = [
        "help": "/help", "?": "/help", "quit": "/quit", "exit": "/quit", "clear": "/clear", "cls": "/clear",
    ]

    /// The command a mistyped name most likely meant: a prefix, or at most two edits away.
    static func suggestion(for typed: String) -> String? {
        let typed = typed.lowercased()
        guard !typed.isEmpty else { return nil }
        let names = all.map { $0.name }
        if let prefixed = names.first(where: { $0.hasPrefix(typed) }) { return prefixed }
        return nearest(to: typed, among: names)
    }

    /// The name at most two edits from `typed` (one for short words), the closest first; for commands and flags.
    package static func nearest(to typed: String, among names: [String]) -> String? {
        let typed = typed.lowercased()
        let scored = names.map { ($0, editDistance(typed, $0)) }.filter { $0.1 <= min(2, max(1, typed.count / 3)) }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Damerau–Levenshtein distance (optimal string alignment): insertions, deletions, substitutions and a swap of
    /// two neighbouring letters each count one, so `--grdae` is as near `--grade` as `--gradee` is.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var before = [Int]()
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                var best = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
                if i > 0, j > 0, x == b[j - 1], a[i - 1] == y { best = min(best, before[j - 1] + 1) }
                current.append(best)
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }

    /// Completion candidates for the word at the end of `lineBeforeCursor`: command names after a
    /// leading slash, and the command's own argument candidates after it.
    /// - Parameters:
    ///   - lineBeforeCursor: The line up to the cursor.
    ///   - frameworks: The frameworks the prompt templates offer, for `/framework`.
    package static func completions(for lineBeforeCursor: String, frameworks: [String] = []) -> [String] {
        guard lineBeforeCursor.hasPrefix("/") else { return [] }
        guard let space = lineBeforeCursor.firstIndex(where: \.isWhitespace) else {
            let typed = lineBeforeCursor.dropFirst().lowercased()
            return all.map { "/" + $0.name }.filter { $0.dropFirst().hasPrefix(typed) }
        }
        let name = lineBeforeCursor[lineBeforeCursor.index(after: lineBeforeCursor.startIndex)..<space]
        guard let command = command(named: String(name)) else { return [] }
        let arguments = lineBeforeCursor[space...].drop { $0.isWhitespace }
        // Only the first argument is completed.
        guard !arguments.contains(where: \.isWhitespace) else { return [] }
        let typed = arguments.lowercased().replacingOccurrences(of: "-", with: "–")
        return command.argumentCompletions(frameworks: frameworks).filter {
            $0.lowercased().replacingOccurrences(of: "-", with: "–").hasPrefix(typed)
        }
    }

    /// The `/help` table: one line per command.
    package static func helpText() -> String {
        // Usages wider than the column get a line of their own, so the summaries keep room at 80 columns.
        let width = min(all.map { $0.usage.count }.max() ?? 0, usageColumn)
        var lines: [String] = []
        for command in all {
            if command.usage.count > width {
                lines.append(command.usage)
                lines.append(String(repeating: " ", count: width + 2) + command.summary)
            } else {
                lines.append(command.usage.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.summary)
            }
        }
        lines.append("")
        lines.append("Any line that does not start with / asks for that change, like /revise;")
        lines.append("help, ?, quit, exit, clear and cls typed alone run /help, /quit and /clear; a line of one or")
        lines.append("two words such as thanks, ok or ls is not sent without asking (see the README).")
        lines.append("Ctrl-C cancels a request (connecting, waiting, retrying or streaming); Ctrl-C twice, Ctrl-D or /quit leaves.")
        return lines.joined(separator: "\n")
    }

    /// The widest usage that shares its line with its summary in `/help`.
    static let usageColumn = 24

    /// `/help <command>`: usage, summary and details of one command.
    package static func helpText(for name: String) throws(CommandError) -> String {
        let bare = name.hasPrefix("/") ? String(name.dropFirst()) : name
        guard let command = command(named: bare) else {
            throw CommandError("/\(bare) is not a command; type /help to list them.")
        }
        return [command.usage, command.summary, flowing(command.details)].filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// Prose as paragraphs of one line each, for the reader to wrap to its width: the line breaks of the source
    /// (where the literal was wrapped, at ~110 columns) become spaces; a blank line still parts two paragraphs.
    static func flowing(_ text: String) -> String {
        text.components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        }.joined(separator: "\n\n")
    }
}

extension CommandTable {
    /// Every template a command can render, for checking a prompts folder at start.
    package static var templates: [String] { all.flatMap { $0.templates } }
}
