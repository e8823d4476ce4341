import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanModel
import Synchronization

/// What the session looks like when a command is parsed, so commands can validate against it.
package struct CommandContext: Sendable {
    /// Inputs of the current plan (or of the session when no plan exists yet).
    package var inputs: LessonInputs
    /// The current version number, nil before the first plan.
    package var currentVersion: Int?
    /// How many versions exist.
    package var versionCount: Int
    /// The framework of the current plan (or of the session before the first plan).
    package var framework: String
    /// The frameworks the prompt templates offer, for `/framework`.
    package var frameworks: [String]

    /// The command of the last turn when it did not complete, which `/retry` would send again.
    package var retryCommand: String?
    /// The command whose answer stopped early, leaving a draft that `/continue` would finish.
    package var draftCommand: String?
    /// Whether a request can be sent at all (false without a key), so hints never point at `/generate` in vain.
    package var canSend = true
    /// In a unit: how many lessons it has; nil for a single lesson.
    package var unitLessons: Int?
    /// In a unit: the lessons not written yet, which `/unit continue` and `/continue` write.
    package var lessonsMissing: [Int] = []

    package init(
        inputs: LessonInputs, currentVersion: Int?, versionCount: Int, framework: String = Framework.defaultName,
        frameworks: [String] = [Framework.defaultName], retryCommand: String? = nil, draftCommand: String? = nil
    ) {
        self.inputs = inputs
        self.currentVersion = currentVersion
        self.versionCount = versionCount
        self.framework = framework
        self.frameworks = frameworks
        self.retryCommand = retryCommand
        self.draftCommand = draftCommand
    }
}

/// A command typed at the prompt that cannot be used, in one sentence that says what to type.
package struct CommandError: Error, Equatable, Sendable, LocalizedError {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var errorDescription: String? { message }
}

/// One slash command: its name, help text, argument completions, the parsing of its arguments,
/// and what it does.
///
/// Every command lives in its own file and is listed once in ``CommandTable/all``, which drives
/// parsing, `/help`, Tab completion and the README's table. The REPL, piped scripts,
/// `generate --then` and `replay --rerun` all run commands through one ``CommandRunner``; what
/// differs between them is the ``CommandHost``.
package protocol Command: Sendable {
    /// The name typed after the slash.
    static var name: String { get }
    /// How the command is typed, e.g. `/shorten [minutes]`.
    static var usage: String { get }
    /// One line for `/help`.
    static var summary: String { get }
    /// A few more lines for `/help <command>`.
    static var details: String { get }
    /// Candidates Tab offers for the first argument.
    static var argumentCompletions: [String] { get }
    /// Candidates Tab offers when they depend on the prompt templates, such as framework names.
    static func argumentCompletions(frameworks: [String]) -> [String]
    /// Whether the command needs an existing plan to work on.
    static var needsPlan: Bool { get }
    /// Whether the command needs a teacher at a terminal (an editor, the clipboard); checked before
    /// anything is sent, so a script that uses it fails before a request is paid for.
    static var needsTerminal: Bool { get }
    /// Whether the command only asks the model for a turn (and changes nothing outside the session):
    /// the only commands `replay --rerun` sends again from a transcript, which anyone may have written.
    static var asksTheModel: Bool { get }
    /// The prompt templates the command renders, checked when a prompts folder is loaded.
    static var templates: [String] { get }
    /// Whether the command says itself what it wrote of changes a full disk kept unsaved (`/save`), so the runner
    /// does not say it again.
    static var reportsSaving: Bool { get }
    /// Checks the arguments against the session and says what to do.
    /// - Throws: ``CommandError`` naming what was wrong and what to type instead.
    static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self
    /// Does what the command says, printing through `run.host`.
    func run(_ run: CommandRun) async -> CommandOutcome
}

extension Command {
    package static var details: String { "" }
    package static var argumentCompletions: [String] { [] }
    package static func argumentCompletions(frameworks: [String]) -> [String] { argumentCompletions }
    package static var needsPlan: Bool { true }
    package static var needsTerminal: Bool { false }
    package static var asksTheModel: Bool { false }
    package static var templates: [String] { [] }
    package static var reportsSaving: Bool { false }

    /// Rejects arguments for commands that take none.
    static func expectNoArguments(_ arguments: String) throws(CommandError) {
        guard arguments.isEmpty else {
            throw CommandError("/\(name) takes no arguments; type \(usage).")
        }
    }
}

/// A command that sends one request built from a prompt template with the current plan as context.
package protocol RequestCommand: Command {
    /// The template and inputs of the request.
    var refinement: Refinement { get }
}

extension RequestCommand {
    package static var asksTheModel: Bool { true }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        await run.request(refinement)
    }
}

/// A command that takes no arguments and shows a report on the current plan, read with its framework.
package protocol PlanReportCommand: Command {
    init()
    /// What the command prints about `version`.
    static func report(of version: PlanVersion, framework: Framework) -> StyledText
}

extension PlanReportCommand {
    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        guard let (current, framework) = await run.currentPlanAndFramework() else { return .failed }
        run.host.show(Self.report(of: current, framework: framework))
        return .done
    }
}

/// Where commands run; each place is one ``CommandHost``.
package enum CommandPlace: String, Sendable {
    /// The REPL with a teacher at a terminal.
    case terminal
    /// The REPL reading commands from a pipe or file.
    case script
    /// `lessonplan generate --then …`.
    case then
    /// `lessonplan replay --rerun`.
    case rerun

    /// Whether a teacher can answer questions, use an editor or a clipboard.
    package var isTerminal: Bool { self == .terminal }

    /// Whether the session goes on after the command, so the next line can be another slash command.
    package var isREPL: Bool { self == .terminal || self == .script }

    /// How the place is named in a sentence.
    package var described: String {
        switch self {
        case .terminal: "at the prompt"
        case .script: "in a script"
        case .then: "under --then"
        case .rerun: "in a re-run"
        }
    }
}

/// What differs between the places a command runs: where output goes, whether there is a
/// terminal, how to ask yes or no. Every string a host prints passes the terminal sanitiser.
package protocol CommandHost: Sendable {
    var place: CommandPlace { get }
    /// The width to lay tables and charts out for.
    var columns: Int { get }
    /// The folder relative file names are written to.
    var workingDirectory: URL { get }
    /// Output the teacher asked to see: help, a plan, a diff, a check.
    func show(_ text: StyledText)
    /// A remark about what happened ("Wrote …"), kept out of a plan printed to stdout.
    func note(_ text: StyledText)
    /// One sentence saying what went wrong and what to do.
    func error(_ message: String)
    /// A yes/no question; false where nobody can answer.
    func confirm(_ question: String) -> Bool
    /// A question with a typed answer; nil where nobody can answer.
    func answer(_ question: String) -> String?
    /// Progress of a request: streamed text, waiting, retries, footers.
    func progress(_ update: RequestProgress, waiting: String)
    /// A command's result: a terminal prints a document; `--then` keeps the last one to print at the end.
    func deliver(_ product: CommandProduct)
    /// Runs work that Ctrl-C cancels.
    func cancellable<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T
    /// Opens `text` in the teacher's editor and returns what they saved.
    /// - Throws: ``CommandError`` when the editor cannot be started or fails.
    func edit(_ text: String, fileName: String) async throws(CommandError) -> String
    /// Puts `text` on the clipboard.
    func copy(_ text: String)
    /// Clears the screen, as Ctrl-L does; nothing where there is no terminal.
    func clearScreen()
    /// Whether what `show` prints reaches a terminal (tables fitted to it) or a pipe or file (whole values).
    var showsOnTerminal: Bool { get }
}

/// The settings a session's commands can change as they run (`/repair on|off`).
package final class SessionSettings: Sendable {
    private let options: Mutex<FollowUpOptions>
    /// `--yes`: a script sends words that look like students' names as written instead of stopping.
    package let sendsNamesAsTyped: Bool

    package init(followUps: FollowUpOptions = FollowUpOptions(), sendsNamesAsTyped: Bool = false) {
        options = Mutex(followUps)
        self.sendsNamesAsTyped = sendsNamesAsTyped
    }

    /// Which automatic turns follow a request.
    package var followUps: FollowUpOptions {
        get { options.withLock { $0 } }
        set { options.withLock { $0 = newValue } }
    }
}

/// Everything a command's `run` works with.
package struct CommandRun: Sendable {
    package let engine: SessionEngine
    package let host: any CommandHost
    /// The command as typed, trimmed; it is what the transcript records.
    package let line: String
    package let settings: SessionSettings

    package init(engine: SessionEngine, host: any CommandHost, line: String, settings: SessionSettings) {
        self.engine = engine
        self.host = host
        self.line = line
        self.settings = settings
    }

    /// That there is no plan yet and how to get one: /generate, or first a model when no request can be sent.
    var noPlanYet: String {
        engine.client.settings.lacksKey
            ? "There is no plan yet, and writing one needs a model: set OPENAI_API_KEY (or api_key in the settings file), or leave and start again with --local or --endpoint; then /generate."
            : "There is no plan yet; type /generate to write one."
    }

    /// The current plan, or nil after saying there is none.
    func currentPlan() async -> PlanVersion? {
        guard let current = await engine.state.current else {
            host.error(noPlanYet)
            return nil
        }
        return current
    }

    /// The current plan and the framework it is written in, or nil after saying why there is none.
    func currentPlanAndFramework() async -> (PlanVersion, Framework)? {
        guard let current = await currentPlan() else { return nil }
        do { return (current, try await engine.framework(of: current)) } catch {
            host.error(error.message)
            return nil
        }
    }

    /// Sends a request and its automatic follow-ups, shown as they stream.
    func request(_ refinement: Refinement, waiting: String = "writing the plan…") async -> CommandOutcome {
        await requestResult(refinement, waiting: waiting).outcome
    }

    /// Sends a request and its automatic follow-ups; returns the engine's result too.
    /// - Parameter shows: turns the text of a completed turn into what the teacher sees before its footer; nil
    ///   streams the answer as it comes.
    func requestResult(
        _ refinement: Refinement, waiting: String = "writing the plan…", shows: (@Sendable (String) -> StyledText)? = nil
    ) async -> (outcome: CommandOutcome, result: RequestResult) {
        let engine = engine
        let host = host
        let line = line
        let options = settings.followUps
        let result = await host.cancellable {
            await engine.request(command: line, refinement: refinement, options: options) { update in
                Self.forward(update, to: host, waiting: waiting, shows: shows)
            }
        }
        if let levels = Footer.levels(before: result.levelBefore, after: result.levelAfter) {
            host.show(StyledText(levels))
        }
        let outcome = CommandOutcome(sent: result.outcomes)
        if outcome.status == .done {
            // What a kind delivers once its command is done; nil when its command delivers it, as it is shown.
            if let product = refinement.kind.product.delivery(result.first) { host.deliver(product) }
        }
        return (outcome, result)
    }

    /// Passes progress on to the host; with `shows`, a completed turn's text is shown as `shows` renders it
    /// instead of streamed.
    private static func forward(
        _ update: RequestProgress, to host: any CommandHost, waiting: String, shows: (@Sendable (String) -> StyledText)?
    ) {
        switch update {
        case .turn(.text) where shows != nil:
            return
        case .ended(let outcome) where outcome.status == .completed:
            // A repair that is not kept is not shown: its footer says it was tried and why it did not replace the draft.
            if let shows, outcome.kept != false { host.show(shows(outcome.text)) }
        default:
            break
        }
        host.progress(update, waiting: waiting)
    }

    /// Sends a `/quiz` or `/rubric` request and, when it fails its check, the one repair (unless repair is off).
    /// - Parameter shows: turns the text of a completed turn into what the teacher sees before its footer; nil
    ///   streams the answer as it comes.
    func assessment(
        _ request: AssessmentRequest, waiting: String, shows: (@Sendable (String) -> StyledText)? = nil
    ) async -> (outcome: CommandOutcome, result: RequestResult) {
        let engine = engine
        let host = host
        let line = line
        let repair = settings.followUps.repair
        let result = await host.cancellable {
            await engine.assess(command: line, request, repair: repair) { update in
                Self.forward(update, to: host, waiting: waiting, shows: shows)
            }
        }
        return (CommandOutcome(sent: result.outcomes), result)
    }

    /// Sends one part of a quiz or rubric to be written again (``SessionEngine/redoPart(command:purpose:assessment:progress:)``).
    /// - Parameter shows: as for ``assessment(_:waiting:shows:)``.
    func part(
        _ purpose: TurnPurpose, assessment: AssessmentRequest, waiting: String, shows: (@Sendable (String) -> StyledText)? = nil
    ) async -> (outcome: CommandOutcome, result: RequestResult) {
        let engine = engine
        let host = host
        let line = line
        let result = await host.cancellable {
            await engine.redoPart(command: line, purpose: purpose, assessment: assessment) { update in
                Self.forward(update, to: host, waiting: waiting, shows: shows)
            }
        }
        return (CommandOutcome(sent: result.outcomes), result)
    }

    /// One turn that repeats or finishes an earlier one, shown like any other.
    func single(_ turn: @escaping @Sendable (SessionEngine, @escaping @Sendable (TurnProgress) -> Void) async -> TurnOutcome)
        async -> CommandOutcome
    {
        let engine = engine
        let host = host
        let outcome = await host.cancellable {
            let outcome = await turn(engine) { progress in host.progress(.turn(progress), waiting: "writing the plan…") }
            host.progress(.ended(outcome), waiting: "")
            return outcome
        }
        if outcome.status == .completed { host.deliver(.plan) }
        return CommandOutcome(sent: [outcome])
    }
}

/// How a command ended.
package struct CommandOutcome: Sendable, Equatable {
    package enum Status: Sendable, Equatable {
        /// It did what it said.
        case done
        /// It could not: it has said why. A script or `generate` that ran it exits 1.
        case failed
        /// The session should end.
        case quit
    }

    package var status: Status
    /// The turns it sent to the model, its own first.
    package var turns: [TurnOutcome]

    package init(status: Status = .done, turns: [TurnOutcome] = []) {
        self.status = status
        self.turns = turns
    }

    /// The outcome of a command that sent these turns: done when its own turn (the first) completed.
    package init(sent turns: [TurnOutcome]) {
        self.init(status: turns.first?.status == .completed ? .done : .failed, turns: turns)
    }

    package static let done = CommandOutcome()
    package static let failed = CommandOutcome(status: .failed)
}

/// Rounds to the nearest multiple of 5 (halves up).
func roundedToFive(_ value: Double) -> Int {
    Int((value / 5).rounded(.toNearestOrAwayFromZero)) * 5
}
