import Foundation
import LessonPlanKit
import Terminal

/// The `lessonplan` command: picks the subcommand and turns every failure into one sentence
/// and an exit status (0 done, 1 failed, 2 bad usage).
struct App {
    static let version = Invocation.version
    let environment: [String: String]
    let console: Console

    init(environment: [String: String]) {
        self.environment = environment
        console = Console(environment: environment)
    }

    /// The subcommands, for "did you mean".
    static let subcommands = ["generate", "unit", "resume", "sessions", "replay", "export", "doctor", "help"]

    /// Flags and environment read into settings, templates and lesson inputs.
    var invocation: Invocation { Invocation(environment: environment) }

    func run(_ arguments: [String]) async -> Int32 {
        switch arguments.first {
        case "--version", "-V":
            console.line("lessonplan \(Self.version)")
            return 0
        case "--help", "-h":
            console.prose(Help.overview())
            return 0
        case "help":
            return help(Array(arguments.dropFirst()))
        case "generate":
            return await OneShot(app: self).run(Array(arguments.dropFirst()))
        case "unit":
            return await UnitRun(app: self).run(Array(arguments.dropFirst()))
        case "resume":
            return await InteractiveSession(app: self).resume(Array(arguments.dropFirst()))
        case "sessions":
            return SessionCommands(app: self).sessions(Array(arguments.dropFirst()))
        case "replay":
            return await SessionCommands(app: self).replay(Array(arguments.dropFirst()))
        case "export":
            return SessionCommands(app: self).export(Array(arguments.dropFirst()))
        case "doctor":
            return await Doctor(app: self).run(Array(arguments.dropFirst()))
        default:
            if let first = arguments.first, !first.hasPrefix("-") {
                let shown = TerminalSanitizer.cleanLine(first, limit: 40)
                let advice = CommandTable.nearest(to: first, among: Self.subcommands).map {
                    "did you mean `lessonplan \($0)`? Run `lessonplan --help` to see them all."
                } ?? "run `lessonplan --help` to see them."
                console.error("“\(shown)” is not a lessonplan command; \(advice)")
                return 2
            }
            return await InteractiveSession(app: self).run(arguments)
        }
    }

    private func help(_ arguments: [String]) -> Int32 {
        guard let topic = arguments.first else {
            console.prose(Help.overview())
            return 0
        }
        if let text = Help.subcommand(topic) {
            console.prose(text)
            return 0
        }
        do {
            console.line(try CommandTable.helpText(for: topic))
            return 0
        } catch {
            console.error("No help for “\(topic)”: it is neither a lessonplan command nor a slash command; run `lessonplan --help`.")
            return 2
        }
    }
}
