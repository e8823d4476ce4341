import Foundation
import LessonPlanKit

/// The `lessonplan` command: picks the subcommand and turns every failure into one sentence
/// and an exit status (0 done, 1 failed, 2 bad usage).
struct App {
    static let version = "0.1.0"
    let environment: [String: String]
    let console: Console

    init(environment: [String: String]) {
        self.environment = environment
        console = Console(environment: environment)
    }

    /// The subcommands, for dispatch and help.
    static let subcommands: [(name: String, usage: String, summary: String)] = [
        ("generate", "lessonplan generate --grade … --topic … --minutes … [--then \"/shorten 30\"]…",
         "one-shot: write a plan, apply each --then command, print the final plan"),
        ("resume", "lessonplan resume <session>", "reopen a saved session at its current version"),
        ("sessions", "lessonplan sessions [--json] | sessions rm <session> [--yes]", "list saved sessions, or remove one"),
        ("replay", "lessonplan replay <session> [--full] [--turn N] [--plain] [--step]",
         "walk a session turn by turn with diffs (no key or network needed)"),
        ("replay --rerun", "lessonplan replay --rerun <session> [--model M] [--prompts DIR] [--no-repair]",
         "run the same commands again today and show how the plans differ"),
        ("export", "lessonplan export <session> --format md|html|json [-o FILE] [--force] [--materials]",
         "the current plan (or its handouts) as Markdown, a printable HTML page, or JSON"),
        ("doctor", "lessonplan doctor [connection options]",
         "show the effective settings and check the connection with one tiny request"),
        ("help", "lessonplan help [command]", "show help for lessonplan, a subcommand or a slash command"),
    ]

    func run(_ arguments: [String]) async -> Int32 {
        switch arguments.first {
        case "--version", "-V":
            console.line("lessonplan \(Self.version)")
            return 0
        case "--help", "-h":
            console.out(Help.overview())
            return 0
        case "help":
            return help(Array(arguments.dropFirst()))
        case "generate":
            return await OneShot(app: self).run(Array(arguments.dropFirst()))
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
                console.error("“\(first)” is not a lessonplan command; run `lessonplan --help` to see them.")
                return 2
            }
            return await InteractiveSession(app: self).run(arguments)
        }
    }

    private func help(_ arguments: [String]) -> Int32 {
        guard let topic = arguments.first else {
            console.out(Help.overview())
            return 0
        }
        if let text = Help.subcommand(topic) {
            console.out(text)
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

    /// Resolves settings and prompt templates, or explains what is wrong with them.
    func settings(from parsed: ParsedArguments) throws(UsageError) -> (ResolvedSettings, PromptLibrary) {
        do {
            let settings = try ResolvedSettings.resolve(
                flags: Flags.connection(from: parsed), environment: environment,
                file: SettingsFile.load(environment: environment))
            let prompts = try settings.prompts()
            // Only a teacher's folder can be broken: the built-in templates are checked by the test suite,
            // and rendering every template of every framework at each start cost most of the start-up time.
            if settings.promptsDirectory != nil {
                try prompts.validate(
                    templates: ["instructions", "rules"] + CommandTable.templates
                        + (settings.model.structured ? StructuredPlan.templates : []))
            }
            return (settings, prompts)
        } catch let error as SettingsError {
            throw UsageError(message: error.message)
        } catch {
            throw UsageError(message: error.localizedDescription)
        }
    }

    /// The framework `--framework` names, checked against the templates' frameworks.
    func framework(from parsed: ParsedArguments, prompts: PromptLibrary) throws(UsageError) -> String {
        guard let name = parsed.value("framework") else { return Framework.defaultName }
        do { return try prompts.framework(name).name } catch { throw UsageError(message: error.localizedDescription) }
    }

    /// The real network transport (libcurl; proxies from the environment), configured from the settings.
    func client(for settings: ResolvedSettings) -> ModelClient {
        ModelClient(transport: CurlTransport(userAgent: "lessonplan/\(Self.version)"), settings: settings.model)
    }

    /// Reads lesson inputs from flags; missing ones come from `ask`, or defaults when it is nil.
    func inputs(from parsed: ParsedArguments, ask: ((Question) throws(UsageError) -> String)?) throws(UsageError)
        -> LessonInputs
    {
        do {
            let grade: GradeBand
            if let text = parsed.value("grade") {
                grade = try GradeBand.parse(text)
            } else if let ask {
                grade = try GradeBand.parse(try ask(.grade))
            } else {
                grade = .sixTo8
            }
            let topic: String
            if let text = parsed.value("topic") {
                topic = try LessonInputs.validTopic(text)
            } else if let ask {
                topic = try LessonInputs.validTopic(try ask(.topic))
            } else {
                throw UsageError(message: "--topic is required, e.g. --topic \"Photosynthesis\".")
            }
            let minutes: Int
            if let text = parsed.value("minutes") {
                minutes = try LessonInputs.parseMinutes(text)
            } else if let ask {
                minutes = try LessonInputs.parseMinutes(try ask(.minutes))
            } else {
                minutes = 45
            }
            return try LessonInputs(
                grade: grade, topic: topic, minutes: minutes, standards: parsed.value("standards") ?? "",
                constraints: parsed.value("constraints") ?? "")
        } catch let error as UsageError {
            throw error
        } catch let error as InputError {
            throw UsageError(message: error.message)
        } catch {
            throw UsageError(message: error.localizedDescription)
        }
    }

    /// A session name from `--name`, checked.
    func sessionName(_ parsed: ParsedArguments) throws(UsageError) -> String? {
        guard let text = parsed.value("name") else { return nil }
        do { return try SessionStore.validName(text) } catch { throw UsageError(message: error.localizedDescription) }
    }
}

/// An input the REPL asks for when its flag is missing.
enum Question {
    case grade, topic, minutes

    var prompt: String {
        switch self {
        case .grade: "Grade band (K–2, 3–5, 6–8, 9–12) [6–8]: "
        case .topic: "Topic: "
        case .minutes: "Minutes (10–180) [45]: "
        }
    }

    /// What an empty answer means.
    var defaultAnswer: String? {
        switch self {
        case .grade: "6–8"
        case .topic: nil
        case .minutes: "45"
        }
    }

    /// Checks an answer with the same rules as the flags.
    func check(_ answer: String) throws(InputError) {
        switch self {
        case .grade: _ = try GradeBand.parse(answer)
        case .topic: _ = try LessonInputs.validTopic(answer)
        case .minutes: _ = try LessonInputs.parseMinutes(answer)
        }
    }
}
