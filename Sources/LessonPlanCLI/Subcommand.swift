import Foundation
import LessonPlanKit

/// One `lessonplan` subcommand, declared once: the flags it parses, the lines `lessonplan --help` lists, the page
/// `lessonplan help NAME` and `lessonplan NAME --help` print, and what runs it. Parsing, help and dispatch all
/// read this value, so they cannot disagree (swift-argument-parser's `CommandConfiguration` is the model).
package struct Subcommand: Sendable {
    /// One way to call it, as the overview lists it.
    package struct Form: Sendable {
        package let usage: String
        package let summary: String

        package init(_ usage: String, _ summary: String) {
            self.usage = usage
            self.summary = summary
        }
    }

    /// A paragraph of its help page.
    package enum Block: Sendable {
        case text(String)
        /// The flags it takes by these names, described as they are parsed; nil for all of them but `--help`.
        case flags([String]?)
    }

    /// What its help page is.
    package enum Page: Sendable {
        /// Paragraphs, one blank line apart.
        case blocks([Block])
        /// The whole overview (`lessonplan --help`), for `lessonplan` without a subcommand.
        case overview
    }

    /// What runs it: a host's method, given the parsed command line, returning the exit status.
    package typealias Run = @Sendable (any SubcommandHost, ParsedArguments) async -> Int32

    package let name: String
    /// The flags it takes, `--help` among them; nil for `help`, which reads its words as topics, not flags.
    package let flags: [FlagSpec]?
    package let forms: [Form]
    package let page: Page
    package let run: Run

    package init(name: String, flags: [FlagSpec]?, forms: [Form], page: Page, run: @escaping Run) {
        self.name = name
        self.flags = flags
        self.forms = forms
        self.page = page
        self.run = run
    }

    /// The help page, as `help NAME`, `NAME --help` and `NAME -h` print it.
    package var help: String {
        switch page {
        case .overview:
            return Help.overview()
        case .blocks(let blocks):
            let flags = flags ?? []
            return blocks.map { block in
                switch block {
                case .text(let text): return text
                case .flags(let names?): return Flags.describe(names.compactMap { name in flags.first { $0.name == name } })
                case .flags(nil): return Flags.describe(flags.filter { $0.name != "help" })
                }
            }.joined(separator: "\n\n") + "\n"
        }
    }

    /// Parses `arguments` with its flags and runs it on `host`; `--help` (or `-h`) shows its page instead.
    /// - Returns: The exit status: 2 for flags it cannot use, 0 after help, else what running it returned.
    package func start(_ arguments: [String], on host: any SubcommandHost) async -> Int32 {
        guard let flags else {
            // Words, not flags (`help shorten`), but its own page still comes the way every other one does.
            if let first = arguments.first, first == "--help" || first == "-h" {
                host.page(help)
                return 0
            }
            return await run(host, ParsedArguments(positionals: arguments))
        }
        let parsed: ParsedArguments
        do { parsed = try ParsedArguments.parse(arguments, specs: flags, command: name) } catch {
            host.error(error.message)
            return 2
        }
        if parsed.has("help") {
            host.page(help)
            return 0
        }
        return await run(host, parsed)
    }
}

/// What runs the subcommands and shows what the table decides: the executable, at a terminal or a pipe; in the
/// tests, a recording. Each subcommand's work is one method, so a subcommand in the table cannot go unhandled.
package protocol SubcommandHost {
    /// A page of help, wrapped to the terminal on stdout.
    func page(_ text: String)
    /// One line on stdout: the version, a slash command's help.
    func line(_ text: String)
    /// One sentence on stderr.
    func error(_ message: String)

    /// `lessonplan` without a subcommand: a session at the prompt, or a script from stdin.
    func session(_ parsed: ParsedArguments) async -> Int32
    func generate(_ parsed: ParsedArguments) async -> Int32
    /// `lessonplan unit`: a unit of lessons in one session.
    func unit(_ parsed: ParsedArguments) async -> Int32
    func resume(_ parsed: ParsedArguments) async -> Int32
    func sessions(_ parsed: ParsedArguments) async -> Int32
    func replay(_ parsed: ParsedArguments) async -> Int32
    func export(_ parsed: ParsedArguments) async -> Int32
    func doctor(_ parsed: ParsedArguments) async -> Int32
    /// `lessonplan class …`: class lists on this machine.
    func classes(_ parsed: ParsedArguments) -> Int32
    /// `lessonplan results`: a quiz's counts saved with its session and reported.
    func results(_ parsed: ParsedArguments) -> Int32
}
