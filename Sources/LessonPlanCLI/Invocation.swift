import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore

/// One run of `lessonplan`: its flags and environment read into settings, prompt templates and
/// lesson inputs, each failure one sentence (a ``UsageError``).
package struct Invocation: Sendable {
    /// The tool's version, for `--version`, help and the transcript.
    package static let version = "0.1.0"

    package let environment: [String: String]

    package init(environment: [String: String]) {
        self.environment = environment
    }

    /// Resolves settings and prompt templates, or explains what is wrong with them.
    package func settings(from parsed: ParsedArguments) throws(UsageError) -> (ResolvedSettings, PromptLibrary) {
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
    package func framework(from parsed: ParsedArguments, prompts: PromptLibrary) throws(UsageError) -> String {
        guard let name = parsed.value("framework") else { return Framework.defaultName }
        do { return try prompts.framework(name).name } catch { throw UsageError(message: error.localizedDescription) }
    }

    /// The real network transport (libcurl; proxies from the environment), configured from the settings.
    package func client(for settings: ResolvedSettings) -> ModelClient {
        ModelClient(transport: CurlTransport(userAgent: "lessonplan/\(Self.version)"), settings: settings.model)
    }

    /// The client for a session tied to the class `--class` names (or `className`, a re-run's): its students'
    /// names go out as pseudonyms. Without one, the plain client.
    package func client(for settings: ResolvedSettings, className: String?, prompts: PromptLibrary) throws(UsageError)
        -> ModelClient
    {
        let client = client(for: settings)
        guard let className else { return client }
        do {
            let (roster, map) = try ClassStore(directory: settings.dataDirectory).map(className, ordinaryWords: prompts.ordinaryNameWords)
            return client.tied(to: ClassNames(roster: roster, map: map))
        } catch {
            throw UsageError(message: error.localizedDescription)
        }
    }

    /// The client for a new session (``client(for:className:prompts:)``), once the words of the teacher's flags that
    /// look like students' names and are not on the class list are cleared: asked about at a terminal (`ask`),
    /// refused in a script unless `--yes`.
    package func sessionClient(
        for settings: ResolvedSettings, parsed: ParsedArguments, inputs: LessonInputs, prompts: PromptLibrary,
        ask: ((Question) throws(UsageError) -> String)?
    ) throws(UsageError) -> ModelClient {
        let client = try client(for: settings, className: parsed.value("class"), prompts: prompts)
        let text = [inputs.topic, inputs.constraints, parsed.value("standards") ?? ""].joined(separator: "\n")
        let found = UnlistedNames.spotted(in: text, names: client.names, prompts: prompts)
        guard !found.isEmpty, !parsed.has("yes") else { return client }
        let className = client.names.value?.name
        guard let ask else { throw UsageError(message: UnlistedNames.scriptRefusal(found, className: className)) }
        let said = try ask(.unlistedNames(UnlistedNames.sentence(found, className: className), className: className))
        let choice: UnlistedNames.Choice
        do {
            choice = try UnlistedNames.settle(
                said, found: found, names: client.names, store: ClassStore(directory: settings.dataDirectory), prompts: prompts)
        } catch {
            throw UsageError(message: error.localizedDescription)
        }
        guard choice != .cancel else { throw UsageError(message: "Nothing was sent.") }
        return client
    }

    /// Reads lesson inputs from flags; missing ones come from `ask`, or defaults when it is nil.
    package func inputs(from parsed: ParsedArguments, ask: ((Question) throws(UsageError) -> String)?) throws(UsageError)
        -> LessonInputs
    {
        do {
            let grade: (band: GradeBand, grade: Int?)
            if let text = parsed.value("grade") {
                grade = try GradeBand.parseGiven(text)
            } else if let ask {
                grade = try GradeBand.parseGiven(try ask(.grade))
            } else {
                grade = (.sixTo8, nil)
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
            var inputs = try LessonInputs(
                grade: grade.band, topic: topic, minutes: minutes, standards: parsed.value("standards") ?? "",
                constraints: parsed.value("constraints") ?? "", givenGrade: grade.grade)
            let resolved = StandardsResolution(inputs.standards, band: inputs.grade)
            if !resolved.concerns.isEmpty, !parsed.has("yes") {
                let sentences = resolved.concerns.map { TerminalSanitizer.cleanLine($0, limit: 400) }.joined(separator: " ")
                // At a terminal the teacher chooses; a script is told, and --yes sends them as they are.
                if let ask {
                    guard ReplInput.isYes(try ask(.sendStandards(sentences))) else {
                        throw UsageError(
                            message: "Nothing was sent; give real codes (`lessonplan standards search WORDS` finds them) or the standards' own words."
                        )
                    }
                } else {
                    throw UsageError(
                        message: sentences
                            + " Nothing was sent; give real codes (`lessonplan standards search WORDS` finds them), or add --yes to send them as they are."
                    )
                }
            }
            inputs.standards = resolved.text
            return inputs
        } catch let error as UsageError {
            throw error
        } catch let error as InputError {
            throw UsageError(message: error.message)
        } catch {
            throw UsageError(message: error.localizedDescription)
        }
    }

    /// A session name from `--name`, checked.
    package func sessionName(_ parsed: ParsedArguments) throws(UsageError) -> String? {
        guard let text = parsed.value("name") else { return nil }
        do { return try SessionStore.validName(text) } catch { throw UsageError(message: error.localizedDescription) }
    }
}

/// An input the REPL asks for when its flag is missing.
package enum Question {
    case grade, topic, minutes
    /// Whether to send `--standards` whose codes the lookup found wrong (the sentences say how).
    case sendStandards(String)
    /// What to do with words that look like students' names not on the class list (the sentence names them).
    case unlistedNames(String, className: String?)

    package var prompt: String {
        switch self {
        case .grade: "Grade band (K–2, 3–5, 6–8, 9–12) [6–8]: "
        case .topic: "Topic: "
        case .minutes: "Minutes (10–180) [45]: "
        case .sendStandards: "Send these standards anyway? [y/N] "
        case .unlistedNames(_, let className): UnlistedNames.question(className: className)
        }
    }

    /// What is said before the question, wrapped as the tool's other sentences are; nil for none.
    package var preamble: String? {
        switch self {
        case .sendStandards(let sentences), .unlistedNames(let sentences, _): sentences
        default: nil
        }
    }

    /// What an empty answer means.
    package var defaultAnswer: String? {
        switch self {
        case .grade: "6–8"
        case .topic: nil
        case .minutes: "45"
        case .sendStandards: "n"
        case .unlistedNames: "c"
        }
    }

    /// Checks an answer with the same rules as the flags.
    package func check(_ answer: String) throws(InputError) {
        switch self {
        case .grade: _ = try GradeBand.parse(answer)
        case .topic: _ = try LessonInputs.validTopic(answer)
        case .minutes: _ = try LessonInputs.parseMinutes(answer)
        case .sendStandards, .unlistedNames: break
        }
    }
}
