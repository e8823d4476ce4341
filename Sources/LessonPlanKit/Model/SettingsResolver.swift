import Foundation

/// The connection-related flags as typed, before any checking.
public struct ConnectionFlags: Sendable, Equatable {
    public var model: String?
    public var maxOutputTokens: String?
    public var prompts: String?
    public var endpoint: String?
    public var headers: [String] = []
    public var api: String?
    public var timeout: String?
    public var deadline: String?
    public var maxRetries: String?
    public var allowInsecure = false
    /// `--local`: the offline model that `scripts/local-model start` runs on this machine.
    public var local = false

    public init() {}
}

/// Settings that cannot be used, each with what to type instead.
public struct SettingsError: Error, Equatable, Sendable, LocalizedError {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}

/// Everything a run needs to know about where things are, resolved once at start.
public struct ResolvedSettings: Sendable {
    public var model: ModelSettings
    public var dataDirectory: DataDirectory
    /// The override folder for prompt templates, or nil for the built-in ones.
    public var promptsDirectory: URL?

    /// The prompt templates these settings name.
    /// - Throws: ``PromptError`` for a missing folder or an unreadable file.
    public func prompts() throws(PromptError) -> PromptLibrary {
        guard let promptsDirectory else { return .builtIn }
        return try PromptLibrary.load(directory: promptsDirectory)
    }

    /// Flags first, then environment, then defaults.
    /// - Throws: ``SettingsError`` naming the flag or variable that is wrong.
    public static func resolve(flags: ConnectionFlags, environment: [String: String]) throws(SettingsError)
        -> ResolvedSettings
    {
        func value(_ flag: String?, _ variable: String) -> String? {
            if let flag, !flag.isEmpty { return flag }
            if let env = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !env.isEmpty {
                return env
            }
            return nil
        }
        if flags.local, flags.endpoint != nil {
            throw SettingsError("--local and --endpoint cannot be combined; --local already names the server on this machine.")
        }
        let baseText: String
        if flags.local {
            let port = environment["LESSONPLAN_LOCAL_PORT"].flatMap { Int($0) } ?? ModelSettings.defaultLocalPort
            guard (1...65535).contains(port) else {
                throw SettingsError("LESSONPLAN_LOCAL_PORT must be a port number from 1 to 65535.")
            }
            baseText = "http://127.0.0.1:\(port)/v1"
        } else {
            baseText = value(nil, "OPENAI_BASE_URL") ?? ModelSettings.defaultBaseURL
        }
        guard let baseURL = URL(string: baseText), let scheme = baseURL.scheme?.lowercased(),
            scheme == "http" || scheme == "https", baseURL.host != nil
        else { throw SettingsError("OPENAI_BASE_URL “\(baseText)” is not an http(s) URL; e.g. https://api.openai.com/v1.") }

        var endpoint: URL?
        if let text = flags.endpoint {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host != nil
            else { throw SettingsError("--endpoint “\(text)” is not an http(s) URL; give the full URL to post to.") }
            endpoint = url
        }

        // LESSONPLAN_MODEL names a hosted model; the local server has its own.
        let model =
            flags.local
            ? (flags.model.flatMap { $0.isEmpty ? nil : $0 } ?? ModelSettings.localModel)
            : (value(flags.model, "LESSONPLAN_MODEL") ?? ModelSettings.defaultModel)
        let maxTokens = try Self.bounded(
            flags.maxOutputTokens, flag: "--max-output-tokens", in: 256...128_000,
            default: flags.local ? ModelSettings.localMaxOutputTokens : ModelSettings.defaultMaxOutputTokens,
            mustBe: "a whole number from 256 to 128000")
        let timeout = try Self.bounded(
            flags.timeout, flag: "--timeout", in: 1...3600, default: ModelSettings.defaultIdleTimeout,
            mustBe: "a number of seconds from 1 to 3600")
        let deadline = try Self.bounded(
            flags.deadline, flag: "--deadline", in: 1...86_400, default: ModelSettings.defaultDeadline,
            mustBe: "a number of seconds from 1 to 86400")
        let retries = try Self.bounded(
            flags.maxRetries, flag: "--max-retries", in: 0...10, default: RetryPolicy.defaultMaxRetries,
            mustBe: "a whole number from 0 (no retries) to 10")
        var api = APIFlavor.responses
        if let text = flags.api {
            guard let flavor = APIFlavor(rawValue: text.lowercased()) else {
                throw SettingsError("--api “\(text)” is not known; use responses or chat.")
            }
            api = flavor
        }
        let headers = try HeaderRules.parse(flags.headers)
        // The local server needs no key, and the teacher's real one has no business going there.
        let key = flags.local ? nil : value(nil, "OPENAI_API_KEY")
        if let key { try HeaderRules.checkKey(key) }
        let settings = ModelSettings(
            baseURL: baseURL, endpoint: endpoint, apiKey: key, model: model, maxOutputTokens: maxTokens, api: api,
            extraHeaders: headers, idleTimeout: timeout, deadline: deadline, retryPolicy: RetryPolicy(maxRetries: retries),
            isLocal: flags.local)
        let sendsCredentials = !(key ?? "").isEmpty || HeaderRules.contains(headers, "Authorization")
        if sendsCredentials, !flags.allowInsecure, !Self.isSafe(settings.requestURL) {
            throw SettingsError(
                "Refusing to send the API key over plain http:// to \(settings.requestURL.host ?? "?"); use https, or pass --allow-insecure if you trust that network.")
        }
        let prompts = value(flags.prompts, "LESSONPLAN_PROMPTS").map { URL(fileURLWithPath: $0, isDirectory: true) }
        return ResolvedSettings(
            model: settings, dataDirectory: DataDirectory.resolve(environment: environment), promptsDirectory: prompts)
    }

    /// A numeric flag's value within `range`, or `fallback` when the flag was not given.
    /// - Throws: ``SettingsError`` naming the flag and what it must be.
    static func bounded<Number: LosslessStringConvertible & Comparable>(
        _ text: String?, flag: String, in range: ClosedRange<Number>, default fallback: Number, mustBe: String
    ) throws(SettingsError) -> Number {
        guard let text else { return fallback }
        guard let number = Number(text), range.contains(number) else {
            throw SettingsError("\(flag) “\(text)” must be \(mustBe).")
        }
        return number
    }

    /// HTTPS anywhere, or plain HTTP to this machine only (see ``LoopbackAddress``).
    static func isSafe(_ url: URL) -> Bool {
        url.scheme?.lowercased() == "https" || LoopbackAddress.isLoopback(url)
    }
}
