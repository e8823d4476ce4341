import Foundation

/// Which wire format the server speaks.
public enum APIFlavor: String, Sendable, CaseIterable {
    /// OpenAI Responses API: `POST {base}/responses`.
    case responses
    /// Chat Completions: `POST {base}/chat/completions`, for servers without the Responses API.
    case chat
}

/// How to reach the model: resolved from flags, then environment, then defaults.
public struct ModelSettings: Sendable, Equatable {
    public static let defaultBaseURL = "https://api.openai.com/v1"
    public static let defaultModel = "gpt-5.2"
    /// Room for a full plan (about 1 500–2 500 tokens of text) plus a reasoning model's hidden
    /// reasoning, which counts against the same limit and can run to several thousand tokens;
    /// the seed's 900 cut plans off mid-section. Only tokens actually produced are billed.
    public static let defaultMaxOutputTokens = 8192
    /// A reasoning model can think quietly for a long time before its first byte.
    public static let defaultIdleTimeout: TimeInterval = 180

    public var baseURL: URL
    /// A full URL to post to instead of `{base}/responses`, e.g. a proxy's `/lessonplan`.
    public var endpoint: URL?
    public var apiKey: String?
    public var model: String
    public var maxOutputTokens: Int
    public var api: APIFlavor
    /// Extra header fields for proxies that need their own authentication.
    public var extraHeaders: [String: String]
    public var idleTimeout: TimeInterval

    public init(
        baseURL: URL, endpoint: URL? = nil, apiKey: String?, model: String,
        maxOutputTokens: Int = ModelSettings.defaultMaxOutputTokens, api: APIFlavor = .responses,
        extraHeaders: [String: String] = [:], idleTimeout: TimeInterval = ModelSettings.defaultIdleTimeout
    ) {
        self.baseURL = baseURL
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.model = model
        self.maxOutputTokens = maxOutputTokens
        self.api = api
        self.extraHeaders = extraHeaders
        self.idleTimeout = idleTimeout
    }

    /// The URL requests are posted to.
    public var requestURL: URL {
        if let endpoint { return endpoint }
        switch api {
        case .responses: return baseURL.appending(path: "responses")
        case .chat: return baseURL.appending(path: "chat/completions")
        }
    }

    /// Where requests go, with any user name or password removed, for transcripts and `doctor`.
    public var redactedURL: String { Self.redact(requestURL) }

    /// The base URL without credentials, for the transcript header.
    public var redactedBaseURL: String { Self.redact(endpoint ?? baseURL) }

    static func redact(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(invalid URL)" }
        components.user = nil
        components.password = nil
        components.query = nil
        return components.string ?? "(invalid URL)"
    }

    /// The key as it may be shown: `sk-…abcd`, never more than its last four characters.
    public static func maskedKey(_ key: String?) -> String {
        guard let key, !key.isEmpty else { return "not set" }
        return key.count > 8 ? "sk-…" + key.suffix(4) : "…(too short to show)"
    }
}
