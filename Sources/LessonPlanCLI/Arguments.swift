import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel

/// One command-line flag, described once for parsing and for `--help`.
package struct FlagSpec: Sendable {
    package let name: String
    package let value: String?
    package let help: String
    package var repeatable = false
    /// The one-letter form (`-o` for `--output`): the same flag, read under its long name.
    package var short: Character?
    /// For a switch that may name something (`--quiz` or `--quiz 2`): the words it takes as its value; any other
    /// word after it is read as usual.
    package var optionalValue: (@Sendable (String) -> Bool)?

    package init(
        name: String, value: String?, help: String, repeatable: Bool = false, short: Character? = nil,
        optionalValue: (@Sendable (String) -> Bool)? = nil
    ) {
        self.name = name
        self.value = value
        self.help = help
        self.repeatable = repeatable
        self.short = short
        self.optionalValue = optionalValue
    }
}

/// Flags and positional arguments of one invocation.
package struct ParsedArguments: Equatable, Sendable {
    package var values: [String: [String]] = [:]
    package var switches: Set<String> = []
    package var positionals: [String] = []

    package init(values: [String: [String]] = [:], switches: Set<String> = [], positionals: [String] = []) {
        self.values = values
        self.switches = switches
        self.positionals = positionals
    }

    package func value(_ name: String) -> String? { values[name]?.last }
    package func all(_ name: String) -> [String] { values[name] ?? [] }
    package func has(_ name: String) -> Bool { switches.contains(name) }

    /// Parses `--flag value`, `--flag=value`, bare switches and the one-letter forms `specs` declare (`-o FILE`,
    /// `-h`) against `specs`; any other word is a positional argument.
    /// - Throws: ``UsageError`` for an unknown flag or a missing value.
    package static func parse(_ arguments: [String], specs: [FlagSpec], command: String) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let spec: FlagSpec
            var inline: String?
            // How the flag was typed, for a message about its value.
            let typed: String
            if argument.hasPrefix("--"), argument.count > 2 {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let named = specs.first(where: { $0.name == name }) else {
                    let hint = CommandTable.nearest(to: name, among: specs.map(\.name)).map { "did you mean --\($0)? " } ?? ""
                    // The session's own flags are the overview's: `lessonplan --help` is where they are listed.
                    let help = command == "lessonplan" ? "lessonplan --help" : "lessonplan help \(command)"
                    throw UsageError(message: "\(command): unknown flag --\(name); \(hint)run `\(help)` for the flags it takes.")
                }
                spec = named
                typed = "--" + name
            } else if argument.count == 2, argument.hasPrefix("-"), let letter = argument.last,
                let named = specs.first(where: { $0.short == letter })
            {
                spec = named
                typed = argument
            } else {
                parsed.positionals.append(argument)
                continue
            }
            guard spec.value != nil else {
                parsed.switches.insert(spec.name)
                if let takes = spec.optionalValue {
                    if let inline {
                        parsed.values[spec.name, default: []].append(inline)
                    } else if index < arguments.count, takes(arguments[index]) {
                        parsed.values[spec.name, default: []].append(arguments[index])
                        index += 1
                    }
                }
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "\(typed) needs a value: \(typed) \(spec.value ?? "VALUE").")
            }
            parsed.values[spec.name, default: []].append(value)
        }
        return parsed
    }
}

/// The flags shared by every command that talks to a model, and the lesson inputs.
package enum Flags {
    package static let lesson: [FlagSpec] = [
        FlagSpec(name: "grade", value: "BAND", help: "grade band: K–2, 3–5, 6–8 or 9–12 (3-5, 3 to 5, 4 and K work too)"),
        FlagSpec(name: "topic", value: "TEXT", help: "what the lesson is about (1–200 characters)"),
        FlagSpec(name: "minutes", value: "N", help: "lesson length, 10 to 180 minutes"),
        FlagSpec(
            name: "standards", value: "TEXT", help: "standards to align to, codes (4.NF.1, MS-LS1-6) or words (optional, up to 1000 characters)"),
        FlagSpec(
            name: "yes", value: nil,
            help:
                "send without asking: --standards codes that are no standard (or for another band), and words that look like students' names but are not on the class list"
        ),
        FlagSpec(name: "constraints", value: "TEXT", help: "constraints such as \"no worksheets\" (optional)"),
        FlagSpec(name: "name", value: "NAME", help: "name the session, to resume it by name later"),
        FlagSpec(
            name: "class", value: "NAME", help: "tie the session to a class list (`lessonplan class add`): its students' names go out as pseudonyms"),
    ]

    package static let connection: [FlagSpec] = [
        FlagSpec(name: "model", value: "MODEL", help: "model to use (env LESSONPLAN_MODEL, default \(ModelSettings.defaultModel))"),
        FlagSpec(
            name: "max-output-tokens", value: "N",
            help: "output token limit incl. hidden reasoning (default \(ModelSettings.defaultMaxOutputTokens))"),
        FlagSpec(name: "prompts", value: "DIR", help: "folder of prompt templates to use (env LESSONPLAN_PROMPTS)"),
        FlagSpec(
            name: "endpoint", value: "URL", help: "post the request to this full URL (a proxy); the key is then optional (config file: endpoint)"),
        FlagSpec(name: "header", value: "\"NAME: VALUE\"", help: "extra request header for a proxy (repeatable)", repeatable: true),
        FlagSpec(name: "api", value: "responses|chat", help: "wire format: Responses API (default) or Chat Completions"),
        FlagSpec(
            name: "timeout", value: "SECONDS", help: "give up when the server is silent this long (default \(Int(ModelSettings.defaultIdleTimeout)))"),
        FlagSpec(
            name: "deadline", value: "SECONDS",
            help: "stop a turn that takes longer than this in all, retries included (default \(Int(ModelSettings.defaultDeadline)))"),
        FlagSpec(
            name: "max-retries", value: "N",
            help:
                "retries after a failure before any text: 429, 5xx, timeouts, lost connections (default \(RetryPolicy.defaultMaxRetries); 0 disables)"
        ),
        FlagSpec(name: "allow-insecure", value: nil, help: "allow sending the key over plain http:// to another machine"),
        FlagSpec(
            name: "local", value: nil,
            help: "use the offline model started by scripts/local-model (127.0.0.1:\(ModelSettings.defaultLocalPort), no key)"),
        FlagSpec(
            name: "structured", value: nil,
            help: "the tool writes headings, minutes and counts; the model fills in the content as JSON (default with --local)"),
        FlagSpec(name: "free-text", value: nil, help: "the model writes the whole plan as text, also with --local"),
    ]

    /// How a new session's plans are structured, and the teacher's text they are grounded in.
    package static let framework: [FlagSpec] = [
        FlagSpec(
            name: "framework", value: "NAME",
            help: "lesson structure: default, or a folder of prompts/frameworks/ (5e, hunter, ubd, gradual-release)"),
        FlagSpec(
            name: "source", value: "FILE",
            help: "ground the plan in your text (PDF, docx, odt, txt, md) and check its quotations (repeatable)",
            repeatable: true),
    ]

    /// The `--source` files, read before anything is sent.
    /// - Throws: ``UsageError`` with the one sentence of the first file that cannot be a source.
    package static func sources(from parsed: ParsedArguments, in folder: URL) async throws(UsageError) -> [SourceDocument] {
        var sources: [SourceDocument] = []
        for path in parsed.all("source") {
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: folder)
            do throws(SourceError) { sources.append(try await SourceReader().read(url)) } catch {
                throw UsageError(message: (error.errorDescription ?? "That file cannot be a source.") + " Nothing was sent.")
            }
        }
        return sources
    }

    /// The automatic turns after a request.
    package static let followUps: [FlagSpec] = [
        FlagSpec(
            name: "no-repair", value: nil,
            help: "do not repair automatically a plan with structure or content problems (advice is never sent unasked)")
    ]

    /// The follow-up switches as the library wants them.
    /// - Parameter saved: the session's own setting (`/repair off` in an earlier run), which `--no-repair` can
    ///   only turn off, never on.
    package static func followUps(from parsed: ParsedArguments, saved: Bool? = nil) -> FollowUpOptions {
        FollowUpOptions(repair: !parsed.has("no-repair") && saved != false)
    }

    /// Every subcommand takes `--help` (and `-h`).
    package static let common: [FlagSpec] = [
        FlagSpec(name: "help", value: nil, help: "show help", short: "h")
    ]

    /// `generate --then COMMAND`: its one description, for parsing and for the help page.
    package static let then = FlagSpec(
        name: "then", value: "COMMAND", help: "a slash command or a change in words, applied after the first plan (repeatable)",
        repeatable: true)

    /// The connection flags as the library wants them.
    package static func connection(from parsed: ParsedArguments) -> ConnectionFlags {
        var flags = ConnectionFlags()
        flags.model = parsed.value("model")
        flags.maxOutputTokens = parsed.value("max-output-tokens")
        flags.prompts = parsed.value("prompts")
        flags.endpoint = parsed.value("endpoint")
        flags.headers = parsed.all("header")
        flags.api = parsed.value("api")
        flags.timeout = parsed.value("timeout")
        flags.deadline = parsed.value("deadline")
        flags.maxRetries = parsed.value("max-retries")
        flags.allowInsecure = parsed.has("allow-insecure")
        flags.local = parsed.has("local")
        flags.structured = parsed.has("structured")
        flags.freeText = parsed.has("free-text")
        return flags
    }

    /// Help lines for a list of flags, aligned.
    package static func describe(_ specs: [FlagSpec]) -> String {
        let labels = specs.map { spec in "  --\(spec.name)" + (spec.value.map { " \($0)" } ?? "") }
        let width = min(34, (labels.map(\.count).max() ?? 0) + 2)
        return zip(labels, specs).map { label, spec in
            (label.count < width ? label.padding(toLength: width, withPad: " ", startingAt: 0) : label + "  ") + spec.help
        }.joined(separator: "\n")
    }
}
