import Foundation
import LessonPlanKit
import Terminal

/// The `lessonplan` command: hands the command line to ``SubcommandTable``, which decides what runs, and runs
/// each subcommand at the terminal, turning every failure into one sentence and an exit status (0 done,
/// 1 failed, 2 bad usage).
struct App {
    static let version = Invocation.version
    let environment: [String: String]
    let console: Console

    init(environment: [String: String]) {
        self.environment = environment
        console = Console(environment: environment)
    }

    /// Flags and environment read into settings, templates and lesson inputs.
    var invocation: Invocation { Invocation(environment: environment) }

    func run(_ arguments: [String]) async -> Int32 {
        await SubcommandTable.run(arguments, on: self)
    }
}

extension App: SubcommandHost {
    /// A page ends with a newline (a slash command's help is written without one), so the shell's prompt that
    /// follows starts its own line.
    func page(_ text: String) { console.prose(text.hasSuffix("\n") ? text : text + "\n") }
    func line(_ text: String) { console.line(text) }
    func error(_ message: String) { console.error(message) }

    func session(_ parsed: ParsedArguments) async -> Int32 { await InteractiveSession(app: self).run(parsed) }
    func generate(_ parsed: ParsedArguments) async -> Int32 { await OneShot(app: self).run(parsed) }
    func unit(_ parsed: ParsedArguments) async -> Int32 { await UnitRun(app: self).run(parsed) }
    func resume(_ parsed: ParsedArguments) async -> Int32 { await InteractiveSession(app: self).resume(parsed) }
    func sessions(_ parsed: ParsedArguments) async -> Int32 { SessionCommands(app: self).sessions(parsed) }
    func replay(_ parsed: ParsedArguments) async -> Int32 { await SessionCommands(app: self).replay(parsed) }
    func export(_ parsed: ParsedArguments) async -> Int32 { await SessionCommands(app: self).export(parsed) }
    func doctor(_ parsed: ParsedArguments) async -> Int32 { await Doctor(app: self).run(parsed) }
    func classes(_ parsed: ParsedArguments) -> Int32 { ClassCommands(app: self).run(parsed) }
    func results(_ parsed: ParsedArguments) -> Int32 { ResultsCommand(app: self).run(parsed) }
}
