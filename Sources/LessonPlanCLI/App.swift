import Foundation
import LessonPlanKit
import Terminal

/// The `lessonplan` command: hands the command line to ``SubcommandTable``, which decides what runs, and runs
/// each subcommand at the terminal, turning every failure into one sentence and an exit status (0 done,
/// 1 failed, 2 bad usage).
package struct App {
    package static let version = Invocation.version
    package let environment: [String: String]
    package let console: Console

    package init(environment: [String: String]) {
        self.environment = environment
        console = Console(environment: environment)
    }

    /// Flags and environment read into settings, templates and lesson inputs.
    var invocation: Invocation { Invocation(environment: environment) }

    package func run(_ arguments: [String]) async -> Int32 {
        await SubcommandTable.run(arguments, on: self)
    }
}

extension App: SubcommandHost {
    /// A page ends with a newline (a slash command's help is written without one), so the shell's prompt that
    /// follows starts its own line.
    package func page(_ text: String) { console.prose(text.hasSuffix("\n") ? text : text + "\n") }
    package func line(_ text: String) { console.line(text) }
    package func error(_ message: String) { console.error(message) }

    package func session(_ parsed: ParsedArguments) async -> Int32 { await InteractiveSession(app: self).run(parsed) }
    package func generate(_ parsed: ParsedArguments) async -> Int32 { await OneShot(app: self).run(parsed) }
    package func unit(_ parsed: ParsedArguments) async -> Int32 { await UnitRun(app: self).run(parsed) }
    package func resume(_ parsed: ParsedArguments) async -> Int32 { await InteractiveSession(app: self).resume(parsed) }
    package func sessions(_ parsed: ParsedArguments) async -> Int32 { SessionCommands(app: self).sessions(parsed) }
    package func replay(_ parsed: ParsedArguments) async -> Int32 { await SessionCommands(app: self).replay(parsed) }
    package func export(_ parsed: ParsedArguments) async -> Int32 { await SessionCommands(app: self).export(parsed) }
    package func doctor(_ parsed: ParsedArguments) async -> Int32 { await Doctor(app: self).run(parsed) }
    package func classes(_ parsed: ParsedArguments) -> Int32 { ClassCommands(app: self).run(parsed) }
    package func results(_ parsed: ParsedArguments) -> Int32 { ResultsCommand(app: self).run(parsed) }
}
