import Foundation
import LessonPlanCore
import LessonPlanModel

/// What `lessonplan doctor` found when it asked the model for one word.
package struct ConnectionCheckResult: Sendable, Equatable {
    /// Whether the server took the request and answered as a model stream.
    package var ok: Bool
    /// Seconds until the status and headers arrived; nil when they never did.
    package var secondsToHead: Double?
    /// Seconds until the answer ended or the check failed.
    package var seconds: Double
    /// The answer text (usually `OK`; may be empty when a reasoning model spent the few tokens thinking).
    package var reply: String
    /// A remark on a successful check, e.g. that the answer stopped at the tiny output limit.
    package var note: String?
    /// The error sentence when the check failed.
    package var message: String?
}

/// One tiny request that proves the settings reach a model: same URL, headers and wire format as
/// a plan, but a one-word prompt and a 16-token limit, sent once without retries.
package enum ConnectionCheck {
    package static let instructions = "You are checking a connection. Reply with the single word OK."
    package static let input = "Say OK."
    /// Whether the check's few tokens all went to reasoning, which still proves the connection.
    static func spentOnReasoning(_ failure: ModelError?) -> Bool {
        if case .nothingWritten = failure { return true }
        return false
    }

    /// The smallest limit the Responses API accepts.
    package static let maxOutputTokens = 16

    /// Sends the check and reads the answer to its end.
    package static func run(_ client: ModelClient) async -> ConnectionCheckResult {
        let clock = ContinuousClock()
        let started = clock.now
        var machine = TurnStateMachine(maxOutputTokens: maxOutputTokens)
        machine.send()
        var secondsToHead: Double?
        do {
            let stream = try await client.open(instructions: instructions, input: input, maxOutputTokens: maxOutputTokens)
            secondsToHead = started.duration(to: clock.now).seconds
            for try await event in stream {
                _ = machine.receive(event)
                if machine.isFinished { break }
            }
            _ = machine.endOfStream()
        } catch let failure as RequestFailure {
            _ = machine.fail(failure.error)
        } catch let error as ModelError {
            _ = machine.fail(error)
        } catch {
            _ = machine.cancel()
        }
        let seconds = started.duration(to: clock.now).seconds
        let reply = machine.text.trimmingCharacters(in: .whitespacesAndNewlines)
        // An answer cut at the check's limit, or a reasoning model that spent all 16 tokens thinking: the connection
        // still works.
        let atLimit = ConnectionCheckResult(
            ok: true, secondsToHead: secondsToHead, seconds: seconds, reply: reply,
            note: "the answer stopped at the check's \(maxOutputTokens)-token limit; that is expected and fine")
        switch machine.state {
        case .finished(.completed):
            return ConnectionCheckResult(ok: true, secondsToHead: secondsToHead, seconds: seconds, reply: reply)
        case .finished(.incomplete):
            return atLimit
        case .finished(.failed) where Self.spentOnReasoning(machine.failure):
            return atLimit
        case .finished(.failed) where machine.failure == .emptyAnswer:
            return ConnectionCheckResult(
                ok: true, secondsToHead: secondsToHead, seconds: seconds, reply: reply,
                note: "the model answered with no text, as a reasoning model may with so few tokens")
        case .finished(.cancelled):
            return ConnectionCheckResult(
                ok: false, secondsToHead: secondsToHead, seconds: seconds, reply: reply, message: "Cancelled.")
        default:
            return ConnectionCheckResult(
                ok: false, secondsToHead: secondsToHead, seconds: seconds, reply: reply,
                message: machine.failure?.errorDescription ?? "The check did not complete.")
        }
    }
}

extension ResolvedSettings {
    /// The effective settings as `doctor` prints them, label and value; the key only masked.
    /// - Parameter environment: for the proxy variables libcurl will read.
    package func summary(environment: [String: String]) -> [(label: String, value: String)] {
        let model = self.model
        let key: String
        if let apiKey = model.apiKey, !apiKey.isEmpty {
            key = ModelSettings.maskedKey(apiKey)
        } else if model.isLocal {
            key = "not needed (--local)"
        } else if model.endpoint != nil {
            key = "not set (optional with --endpoint)"
        } else {
            key = "not set"
        }
        let retries = model.retryPolicy.maxRetries
        /// The value, then where it came from when it was set rather than defaulted.
        func from(_ value: String, _ origin: SettingOrigin, when isSet: Bool = true) -> String {
            isSet ? "\(value)  (\(origin))" : value
        }
        let token = model.token.map { token in
            ModelSettings.maskedToken(token) + " in " + (model.tokenHeader.map { "header \($0)" } ?? "Authorization: Bearer")
        }
        let headerNames = model.extraHeaders.keys.sorted().joined(separator: ", ")
        return [
            ("API key", from(key, origins.apiKey, when: !(model.apiKey ?? "").isEmpty)),
            ("token", from(token ?? "not set", origins.token, when: token != nil)),
            ("base URL", from(ModelSettings.redact(model.baseURL), origins.baseURL, when: !model.isLocal)),
            ("endpoint", from(model.endpoint.map { ModelSettings.redact($0) } ?? "none", origins.endpoint, when: model.endpoint != nil)),
            ("posts to", model.redactedURL),
            ("model", from(model.model + (model.isLocal ? " (the offline model, --local)" : ""), origins.model, when: !model.isLocal)),
            ("API", model.api == .responses ? "responses (Responses API)" : "chat (Chat Completions)"),
            (
                "structure",
                model.structured
                    ? "written by the tool; the model fills a JSON schema (--structured)" : "written by the model (free text)"
            ),
            (
                "headers",
                model.extraHeaders.isEmpty
                    ? "none" : "\(headerNames)  (\(origins.headers.map(\.description).joined(separator: ", ")))"
            ),
            ("output limit", "\(model.maxOutputTokens) tokens"),
            (
                "timeouts",
                "idle \(Int(model.idleTimeout)) s, whole turn \(Int(model.deadline)) s, \(retries) \(retries == 1 ? "retry" : "retries")"
            ),
            ("proxy", Self.proxyDescription(for: model.requestURL, environment: environment)),
            ("offline", OfflineModel.description(in: dataDirectory.root)),
            ("data dir", dataDirectory.root.path),
            ("prompts", promptsDirectory?.path ?? "built in"),
        ]
    }

    /// Which proxy libcurl will use for `url`, from the variables it reads, without credentials.
    ///
    /// libcurl reads `https_proxy` / `HTTPS_PROXY` for https URLs, only the lower-case
    /// `http_proxy` for http ones, then `all_proxy` / `ALL_PROXY`; `no_proxy` / `NO_PROXY` lists
    /// hosts (and domain suffixes, `*` for all) that go direct.
    static func proxyDescription(for url: URL, environment: [String: String]) -> String {
        let https = url.scheme?.lowercased() == "https"
        let names =
            (https ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy"]) + ["all_proxy", "ALL_PROXY"]
        guard let name = names.first(where: { !(environment[$0] ?? "").isEmpty }), let value = environment[name] else {
            return "none"
        }
        let noProxy = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        let host = (url.host ?? "").lowercased()
        let bypassed = noProxy.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .contains { entry in
                let suffix = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
                return entry == "*" || (!suffix.isEmpty && (host == suffix || host.hasSuffix("." + suffix)))
            }
        let shown = URL(string: value).map { ModelSettings.redact($0) } ?? "(unreadable)"
        if bypassed { return "\(name)=\(shown), but \(host) is in NO_PROXY: direct" }
        return "\(name)=\(shown)"
    }
}
