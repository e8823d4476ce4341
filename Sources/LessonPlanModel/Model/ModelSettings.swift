import Foundation

/// Which wire format the server speaks.
package enum APIFlavor: String, Sendable, CaseIterable {
    /// OpenAI Responses API: `POST {base}/responses`.
    case responses
    /// Chat Completions: `POST {base}/chat/completions`, for servers without the Responses API.
    case chat
}

/// How to reach the model: resolved from flags, then environment, then defaults.
package struct ModelSettings: Sendable, Equatable {
    package static let defaultBaseURL = "https://api.openai.com/v1"
    package static let defaultModel = "gpt-5.2"
    /// Room for a full plan (about 1 500–2 500 tokens of text) plus a reasoning model's hidden
    /// reasoning, which counts against the same limit and can run to several thousand tokens;
    /// the seed's 900 cut plans off mid-section. Only tokens actually produced are billed.
    package static let defaultMaxOutputTokens = 8192
    /// A reasoning model can think quietly for a long time before its first byte.
    package static let defaultIdleTimeout: TimeInterval = 180
    /// The longest a whole turn may take, retries included: a long plan from a slow reasoning
    /// model takes a few minutes; ten means something is stuck.
    package static let defaultDeadline: TimeInterval = 600
    /// Where `scripts/local-model` starts llama-server, unless `LESSONPLAN_LOCAL_PORT` says otherwise.
    package static let defaultLocalPort = 8012
    /// The model name `--local` sends when the stamp names no installed model; llama-server answers with
    /// whatever model it loaded.
    package static let localModel = "SmolLM2-135M-Instruct"
    /// When a `--local` turn still running says why it is slow (measured: 5–10 s alone, up to 90 s beside two
    /// busy processes on 2 cores).
    package static let localSlowNotice: TimeInterval = 90
    /// The tiny local model's plans are short; a lower limit bounds a rambling answer.
    package static let localMaxOutputTokens = 2048

    package var baseURL: URL
    /// A full URL to post to instead of `{base}/responses`, e.g. a proxy's `/lessonplan`.
    package var endpoint: URL?
    package var apiKey: String?
    package var model: String
    package var maxOutputTokens: Int
    package var api: APIFlavor
    /// Extra header fields for proxies that need their own authentication.
    package var extraHeaders: [String: String]
    package var idleTimeout: TimeInterval
    /// The longest one turn may take from its first attempt to its last byte, retry waits included.
    package var deadline: TimeInterval
    /// When and how often a failed request is sent again.
    package var retryPolicy: RetryPolicy
    /// Whether this is the offline model started by `scripts/local-model` (`--local`).
    package var isLocal: Bool
    /// After how many seconds a turn still running gets one line saying why it is slow and what to do; nil
    /// for none. On for `--local`, whose tiny model shares the machine's cores.
    package var slowNotice: TimeInterval?
    /// Where `scripts/local-model start` writes why the server died at start (one line, e.g. `signal SIGILL
    /// (illegal instruction)`); read only when nothing answers on the local port.
    package var localDeathFile: URL?
    /// A teacher's token for a school's proxy; sent instead of the key, never shown or saved.
    package var token: String?
    /// The header the token goes in; nil sends it as `Authorization: Bearer <token>`.
    package var tokenHeader: String?
    /// Whether the tool writes the plan's structure and asks the model only for content under a
    /// JSON schema (``StructuredPlan``): on for `--local`, and with `--structured`.
    package var structured = false

    package init(
        baseURL: URL, endpoint: URL? = nil, apiKey: String?, model: String,
        maxOutputTokens: Int = ModelSettings.defaultMaxOutputTokens, api: APIFlavor = .responses,
        extraHeaders: [String: String] = [:], idleTimeout: TimeInterval = ModelSettings.defaultIdleTimeout,
        deadline: TimeInterval = ModelSettings.defaultDeadline, retryPolicy: RetryPolicy = RetryPolicy(),
        isLocal: Bool = false
    ) {
        self.baseURL = baseURL
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.model = model
        self.maxOutputTokens = maxOutputTokens
        self.api = api
        self.extraHeaders = extraHeaders
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.retryPolicy = retryPolicy
        self.isLocal = isLocal
    }

    /// Why the local server died at start, as `scripts/local-model` recorded it: the first line of
    /// ``localDeathFile``, at most 120 characters, or nil when there is none.
    package func localServerDeath() -> String? {
        guard isLocal, let file = localDeathFile,
            let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? Int ?? 0) < 4096,
            let text = try? String(contentsOf: file, encoding: .utf8)
        else { return nil }
        let line = text.split(whereSeparator: \.isNewline).first.map { String($0.prefix(120)) } ?? ""
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Whether a request needs an API key: not for a proxy that holds it (`--endpoint`), nor for
    /// the local model, nor when `--header Authorization: …` brings its own credentials.
    package var requiresKey: Bool { endpoint == nil && !isLocal && !HeaderRules.contains(extraHeaders, "Authorization") }

    /// Whether a request would need a key that is not set: nothing can be sent.
    package var lacksKey: Bool { requiresKey && (apiKey ?? "").isEmpty }

    /// The URL requests are posted to.
    package var requestURL: URL {
        if let endpoint { return endpoint }
        switch api {
        case .responses: return baseURL.appending(path: "responses")
        case .chat: return baseURL.appending(path: "chat/completions")
        }
    }

    /// Where requests go, with any user name or password removed, for transcripts and `doctor`.
    package var redactedURL: String { Self.redact(requestURL) }

    /// The base URL without credentials, for the transcript header.
    package var redactedBaseURL: String { Self.redact(endpoint ?? baseURL) }

    package static func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(invalid URL)" }
        components.user = nil
        components.password = nil
        components.query = nil
        return components.string ?? "(invalid URL)"
    }

    /// A token as it may be shown: `…abcd`, never more than its last four characters.
    package static func maskedToken(_ token: String?) -> String {
        guard let token, !token.isEmpty else { return "not set" }
        return token.count > 8 ? "…" + token.suffix(4) : "…(too short to show)"
    }

    /// The key as it may be shown: `sk-…abcd`, never more than its last four characters.
    package static func maskedKey(_ key: String?) -> String {
        guard let key, !key.isEmpty else { return "not set" }
        return key.count > 8 ? "sk-…" + key.suffix(4) : "…(too short to show)"
    }
}

/// Settings that cannot be used, each with what to type instead.
package struct SettingsError: Error, Equatable, Sendable, LocalizedError {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var errorDescription: String? { message }
}
