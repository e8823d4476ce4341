import Foundation

/// What the session looks like when a command is parsed, so commands can validate against it.
public struct CommandContext: Sendable {
    /// Inputs of the current plan (or of the session when no plan exists yet).
    public var inputs: LessonInputs
    /// The current version number, nil before the first plan.
    public var currentVersion: Int?
    /// How many versions exist.
    public var versionCount: Int
    /// The framework of the current plan (or of the session before the first plan).
    public var framework: String
    /// The frameworks the prompt templates offer, for `/framework`.
    public var frameworks: [String]

    /// The command of the last turn when it did not complete, which `/retry` would send again.
    public var retryCommand: String?
    /// The command whose answer stopped early, leaving a draft that `/continue` would finish.
    public var draftCommand: String?

    public init(
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

/// What a parsed command asks the session to do; the REPL carries it out.
public enum CommandAction: Equatable, Sendable {
    /// Send a request to the model built from a template with the current plan as context.
    case refine(Refinement)
    case undo
    case show(version: Int?)
    case history
    case help(command: String?)
    case quit
    /// Send the last request that did not complete again.
    case retry
    /// Finish the draft the last turn left when it stopped early.
    case continueDraft
    /// Write what a full disk kept in memory, and name the session when a name is given.
    case save(name: String?)
    /// Write the current plan to a file, or to the terminal when no path is given.
    case export(format: ExportFormat, path: String?)
    /// The line diff between two versions (nil: previous and current).
    case diff(from: Int?, to: Int?)
    /// Open the current plan in the teacher's editor.
    case edit
    /// Put the current plan on the clipboard.
    case copy
    /// Print the full plan check of the current plan.
    case check
    /// Ask once for a plan that fixes the current plan's problems; it replaces the plan only if it checks better.
    case repair
    /// Turn the automatic repair of plans that fail the check on or off for the rest of the session.
    case autoRepair(Bool)
    /// Draw the current plan's pacing as a timeline.
    case pacing
    /// Print the reading level of the current plan's student-facing text.
    case level
    /// Name the current framework and list the others.
    case frameworks
    /// Write the latest student handouts to a file, or to the terminal when no path is given.
    case exportMaterials(format: ExportFormat, path: String?)
}

/// The formats a plan can be exported in.
public enum ExportFormat: String, CaseIterable, Sendable {
    case md, html, json

    /// Reads `md`, `markdown`, `html` or `json`.
    public init?(text: String) {
        switch text.lowercased() {
        case "md", "markdown": self = .md
        case "html", "htm": self = .html
        case "json": self = .json
        default: return nil
        }
    }
}

/// A command typed at the prompt that cannot be used, in one sentence that says what to type.
public struct CommandError: Error, Equatable, Sendable, LocalizedError {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}

/// One slash command: its name, help text, argument completions and the parsing of its arguments.
///
/// Every command lives in its own file and is listed once in ``CommandTable/all``, which drives
/// dispatch, `/help` and Tab completion alike.
public protocol SlashCommand: SendableMetatype {
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
    /// The prompt templates the command renders, checked when a prompts folder is loaded.
    static var templates: [String] { get }
    /// Checks the arguments and says what to do.
    /// - Throws: ``CommandError`` naming what was wrong and what to type instead.
    static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction
}

extension SlashCommand {
    public static var details: String { "" }
    public static var argumentCompletions: [String] { [] }
    public static func argumentCompletions(frameworks: [String]) -> [String] { argumentCompletions }
    public static var needsPlan: Bool { true }
    public static var templates: [String] { [] }

    /// Rejects arguments for commands that take none.
    static func expectNoArguments(_ arguments: String) throws(CommandError) {
        guard arguments.isEmpty else {
            throw CommandError("/\(name) takes no arguments; type \(usage).")
        }
    }
}

/// Rounds to the nearest multiple of 5 (halves up).
func roundedToFive(_ value: Double) -> Int {
    Int((value / 5).rounded(.toNearestOrAwayFromZero)) * 5
}
