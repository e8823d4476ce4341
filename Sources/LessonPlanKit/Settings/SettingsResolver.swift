import Foundation
import LessonPlanCore
import LessonPlanModel
import LessonPlanStore

/// The connection-related flags as typed, before any checking.
package struct ConnectionFlags: Sendable, Equatable {
    package var model: String?
    package var maxOutputTokens: String?
    package var prompts: String?
    package var endpoint: String?
    package var headers: [String] = []
    package var api: String?
    package var timeout: String?
    package var deadline: String?
    package var maxRetries: String?
    package var allowInsecure = false
    /// `--local`: the offline model that `scripts/local-model start` runs on this machine.
    package var local = false
    /// `--structured`: the tool writes the structure, the model only the content (the default with `--local`).
    package var structured = false
    /// `--free-text`: the model writes the whole plan, also with `--local`.
    package var freeText = false

    package init() {}
}

/// Everything a run needs to know about where things are, resolved once at start.
package struct ResolvedSettings: Sendable {
    package var model: ModelSettings
    package var dataDirectory: DataDirectory
    /// The override folder for prompt templates, or nil for the built-in ones.
    package var promptsDirectory: URL?
    /// Where the connection settings came from, for `doctor`.
    package var origins = SettingOrigins()

    /// The prompt templates these settings name.
    /// - Throws: ``PromptError`` for a missing folder or an unreadable file.
    package func prompts() throws(PromptError) -> PromptLibrary {
        guard let promptsDirectory else { return .builtIn }
        return try PromptLibrary.load(directory: promptsDirectory)
    }

    /// Flags first, then environment, then the settings file, then defaults.
    /// - Parameter file: the teacher's settings file (``SettingsFile/load(environment:)``), if any;
    ///   `--local` ignores it, since it names its own server and needs no key.
    /// - Throws: ``SettingsError`` naming the flag, variable or file line that is wrong.
    package static func resolve(flags: ConnectionFlags, environment: [String: String], file: SettingsFile? = nil)
        throws(SettingsError) -> ResolvedSettings
    {
        let file = flags.local ? nil : file
        func value(_ flag: String?, _ variable: String, _ fromFile: String? = nil) -> String? {
            pick(flag, variable, fromFile, in: environment)
        }
        if flags.local, flags.endpoint != nil {
            throw SettingsError("--local and --endpoint cannot be combined; --local already names the server on this machine.")
        }
        let origins = flags.local ? SettingOrigins() : Self.origins(flags: flags, environment: environment, file: file)
        let baseURL = try Self.baseURL(flags: flags, environment: environment, file: file, origins: origins)
        let endpoint = try Self.endpoint(flags: flags, file: file)

        // LESSONPLAN_MODEL names a hosted model; the local server has its own: the one installed.
        let installed = flags.local ? OfflineModel.installed(in: DataDirectory.resolve(environment: environment).root) : nil
        let model =
            flags.local
            ? (flags.model.flatMap { $0.isEmpty ? nil : $0 } ?? installed?.name ?? ModelSettings.localModel)
            : (value(flags.model, "LESSONPLAN_MODEL", file?.model) ?? ModelSettings.defaultModel)
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
        if flags.structured, flags.freeText {
            throw SettingsError("--structured and --free-text cannot be combined; choose who writes the plan's structure.")
        }
        let structured = flags.structured || (flags.local && !flags.freeText)
        // llama-server enforces a schema only on Chat Completions (its Responses API ignores `text.format`).
        var api = flags.local && structured ? APIFlavor.chat : APIFlavor.responses
        if let text = flags.api {
            guard let flavor = APIFlavor(rawValue: text.lowercased()) else {
                throw SettingsError("--api “\(text)” is not known; use responses or chat.")
            }
            api = flavor
        }
        let headers = try HeaderRules.parse((file?.headers ?? []) + flags.headers)
        // The local server needs no key, and the teacher's real one has no business going there.
        let key = flags.local ? nil : value(nil, "OPENAI_API_KEY", file?.apiKey)
        if let key { try HeaderRules.checkKey(key) }
        var settings = ModelSettings(
            baseURL: baseURL, endpoint: endpoint, apiKey: key, model: model, maxOutputTokens: maxTokens, api: api,
            extraHeaders: headers, idleTimeout: timeout, deadline: deadline, retryPolicy: RetryPolicy(maxRetries: retries),
            isLocal: flags.local)
        settings.structured = structured
        if flags.local {
            settings.slowNotice = ModelSettings.localSlowNotice
            settings.localDeathFile = DataDirectory.resolve(environment: environment).root
                .appending(path: "local-model/llama-server.died")
        }
        let sendsCredentials = !(key ?? "").isEmpty || HeaderRules.contains(headers, "Authorization")
        if sendsCredentials, !flags.allowInsecure, !Self.isSafe(settings.requestURL) {
            throw SettingsError(
                "Refusing to send the API key over plain http:// to \(settings.requestURL.host ?? "?"); use https, or pass --allow-insecure if you trust that network."
            )
        }
        if !flags.local {
            try Self.applyToken(to: &settings, environment: environment, file: file, allowInsecure: flags.allowInsecure)
        }
        let prompts = value(flags.prompts, "LESSONPLAN_PROMPTS").map { URL(fileURLWithPath: $0, isDirectory: true) }
        var resolved = ResolvedSettings(
            model: settings, dataDirectory: DataDirectory.resolve(environment: environment), promptsDirectory: prompts)
        resolved.origins = origins
        return resolved
    }

    /// A flag's value, else the environment variable's, else the settings file's.
    static func pick(_ flag: String?, _ variable: String, _ fromFile: String?, in environment: [String: String]) -> String? {
        if let flag, !flag.isEmpty { return flag }
        if let env = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !env.isEmpty {
            return env
        }
        return fromFile
    }

    /// The base URL: the local server's for `--local` (its port from `LESSONPLAN_LOCAL_PORT`), else
    /// `OPENAI_BASE_URL`, the file's `base_url` or OpenAI's.
    /// - Throws: ``SettingsError`` for a port or URL that cannot be used, naming where it came from.
    static func baseURL(
        flags: ConnectionFlags, environment: [String: String], file: SettingsFile?, origins: SettingOrigins
    ) throws(SettingsError) -> URL {
        let baseText: String
        if flags.local {
            let given = environment["LESSONPLAN_LOCAL_PORT"]?.trimmingCharacters(in: .whitespaces) ?? ""
            let port = given.isEmpty ? ModelSettings.defaultLocalPort : Int(given) ?? 0
            guard (1...65535).contains(port) else {
                throw SettingsError("LESSONPLAN_LOCAL_PORT must be a port number from 1 to 65535.")
            }
            baseText = "http://127.0.0.1:\(port)/v1"
        } else {
            baseText = pick(nil, "OPENAI_BASE_URL", file?.baseURL, in: environment) ?? ModelSettings.defaultBaseURL
        }
        guard let baseURL = URL(string: baseText), let scheme = baseURL.scheme?.lowercased(),
            scheme == "http" || scheme == "https", baseURL.host != nil
        else {
            if case .file(let path) = origins.baseURL {
                throw SettingsError("base_url “\(baseText)” in \(path) is not an http(s) URL; e.g. https://api.openai.com/v1.")
            }
            throw SettingsError("OPENAI_BASE_URL “\(baseText)” is not an http(s) URL; e.g. https://api.openai.com/v1.")
        }

        return baseURL
    }

    /// The full URL to post to instead of `{base}/responses` (`--endpoint`, else the file's `endpoint`).
    /// - Throws: ``SettingsError`` when it is not an http(s) URL.
    static func endpoint(flags: ConnectionFlags, file: SettingsFile?) throws(SettingsError) -> URL? {
        var endpoint: URL?
        if let text = flags.endpoint ?? file?.endpoint {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                url.host != nil
            else {
                if flags.endpoint == nil, let path = file?.path {
                    throw SettingsError("endpoint “\(text)” in \(path) is not an http(s) URL; give the full URL to post to.")
                }
                throw SettingsError("--endpoint “\(text)” is not an http(s) URL; give the full URL to post to.")
            }
            endpoint = url
        }
        return endpoint
    }

    /// The teacher's proxy token (`LESSONPLAN_TOKEN`, else the file's `token`) and the header it
    /// goes in, refused over plain http:// to another machine like the key.
    /// - Throws: ``SettingsError`` when the token would travel unencrypted.
    static func applyToken(
        to settings: inout ModelSettings, environment: [String: String], file: SettingsFile?, allowInsecure: Bool
    ) throws(SettingsError) {
        let fromEnvironment = environment["LESSONPLAN_TOKEN"]?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let token = fromEnvironment.flatMap({ $0.isEmpty ? nil : $0 }) ?? file?.token else { return }
        guard !HeaderRules.hasControlCharacter(token) else {
            throw SettingsError("The teacher token has a line break or other control character in it; set it to the token alone, on one line.")
        }
        if !allowInsecure, !isSafe(settings.requestURL) {
            throw SettingsError(
                "Refusing to send the teacher token over plain http:// to \(settings.requestURL.host ?? "?"); use https, or pass --allow-insecure if you trust that network."
            )
        }
        settings.token = token
        settings.tokenHeader = file?.tokenHeader
    }

    /// Where each connection setting comes from, in the order `resolve` looks.
    static func origins(flags: ConnectionFlags, environment: [String: String], file: SettingsFile?) -> SettingOrigins {
        let path = file?.path
        var origins = SettingOrigins()
        origins.apiKey = .of(
            flag: nil, nil, environment: environment, "OPENAI_API_KEY", file: file?.apiKey, path: path)
        origins.token = .of(
            flag: nil, nil, environment: environment, "LESSONPLAN_TOKEN", file: file?.token, path: path)
        origins.baseURL = .of(
            flag: nil, nil, environment: environment, "OPENAI_BASE_URL", file: file?.baseURL, path: path)
        origins.endpoint = .of(
            flag: flags.endpoint, "--endpoint", environment: environment, nil, file: file?.endpoint, path: path)
        origins.model = .of(
            flag: flags.model, "--model", environment: environment, "LESSONPLAN_MODEL", file: file?.model, path: path)
        if let path, file?.headers.isEmpty == false { origins.headers.append(.file(path)) }
        if !flags.headers.isEmpty { origins.headers.append(.flag("--header")) }
        return origins
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
