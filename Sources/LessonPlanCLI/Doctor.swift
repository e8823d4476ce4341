import Foundation
import LessonPlanCore
import LessonPlanKit
import Terminal

/// `lessonplan doctor`: the effective settings, then one tiny request to prove they work.
struct Doctor {
    let app: App
    var console: Console { app.console }

    /// Exits 0 when the model answered, 1 when the check failed, 2 for bad flags.
    func run(_ parsed: ParsedArguments) async -> Int32 {
        let settings: ResolvedSettings
        do {
            if let extra = parsed.positionals.first {
                throw UsageError(message: "doctor: unexpected “\(extra)”; run `lessonplan help doctor`.")
            }
            let prompts: PromptLibrary
            (settings, prompts) = try app.invocation.settings(from: parsed)
            if parsed.has("show-request") { return try showRequest(parsed, settings: settings, prompts: prompts) }
        } catch {
            console.error(error.message)
            return 2
        }
        // The clock is shown in local time with its zone: a TLS failure's sentence asks to check it.
        let zone = TimeZone.current
        let offset = zone.secondsFromGMT()
        let utc = String(format: "UTC%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) % 3600 / 60)
        let rows =
            settings.summary(environment: app.environment)
            + [(label: "local time", value: "\(SessionReview.timestamp(Date())) \(zone.identifier) (\(utc))")]
        let width = (rows.map(\.label.count).max() ?? 0) + 2
        for row in rows {
            console.line("  " + row.label.padding(toLength: width, withPad: " ", startingAt: 0) + row.value)
        }
        console.line()
        console.line("Checking the connection with a one-word request to \(settings.model.redactedURL) …")
        let interrupts = Interrupts(whenIdle: {})
        let client = app.invocation.client(for: settings)
        let result = await interrupts.run { await ConnectionCheck.run(client) }
        let timing = String(format: "%.2f s", result.seconds)
        guard result.ok else {
            console.line("  failed after \(timing)")
            console.error(result.message ?? "The check failed.")
            return 1
        }
        let head = result.secondsToHead.map { String(format: ", first response after %.2f s", $0) } ?? ""
        let words = result.reply.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let reply = words.isEmpty ? "" : ": “\(words.prefix(60))”"
        console.line("  OK — the model answered in \(timing)\(head)\(reply)")
        if let note = result.note { console.line("  (\(note))") }
        return 0
    }

    /// `doctor --show-request`: the first plan's request body as it would go out, and nothing sent.
    private func showRequest(_ parsed: ParsedArguments, settings: ResolvedSettings, prompts: PromptLibrary) throws -> Int32 {
        let inputs = try app.invocation.inputs(from: parsed, ask: nil)
        let framework = try app.invocation.framework(from: parsed, prompts: prompts)
        let client = try app.invocation.client(for: settings, className: parsed.value("class"), prompts: prompts)
        let body: Data
        do { body = try TurnPrompt.firstPlanBody(inputs: inputs, framework: framework, prompts: prompts, client: client) } catch {
            throw UsageError(message: error.localizedDescription)
        }
        console.note(
            "The body of the first request a session with these flags would send to \(settings.model.redactedURL), as it would go out; nothing was sent, and the headers (which carry the key) are left out."
        )
        console.document(body, format: .json)
        return 0
    }
}
