import Foundation

/// Why a request to the model did not produce a whole answer, each case one sentence a teacher can act on.
package enum ModelError: Error, Equatable, Sendable, LocalizedError {
    /// No key and no proxy endpoint that would hold one.
    case noKey
    /// The server answered with an HTTP error status and, usually, an OpenAI-style error body.
    case http(status: Int, message: String?, code: String?, model: String, keySuffix: String?)
    /// A 404 that is about the URL rather than the model: nothing answers the API there.
    case notFound(url: String, message: String?, api: APIFlavor)
    /// The body was not a model stream (an HTML page from a proxy, say).
    case notAStream(status: Int, firstLine: String, host: String)
    /// The network failed before or during the answer.
    case transport(TransportError, host: String)
    /// The answer stopped early, e.g. at the output token limit.
    case incomplete(reason: String?, maxOutputTokens: Int)
    /// The answer reached its output limit with no text at all (the budget went to reasoning):
    /// no draft, so nothing for `/continue`. `stated`: the response gave a limit other than the one asked for.
    case nothingWritten(maxOutputTokens: Int, stated: Bool)
    /// The service reported the response failed.
    case failed(message: String?, code: String?)
    /// An `error` event arrived in the stream.
    case streamError(message: String?, code: String?)
    /// The model declined to write the plan.
    case refusal(String)
    /// The stream ended without saying the answer was complete.
    case cutOff
    /// The answer had no text at all.
    case emptyAnswer
    /// The whole turn, retries included, ran past the total deadline (`--deadline`).
    case deadline(seconds: Double)
    /// `--local`, but nothing listens where `scripts/local-model start` runs llama-server.
    /// `died` is what `scripts/local-model start` wrote when the server died at start (`signal SIGILL (illegal
    /// instruction)`), nil when it did not.
    case localServerDown(address: String, died: String? = nil)
    /// The answer ran past ``TurnStateMachine/largestAnswer(maxOutputTokens:)``: a server or
    /// model that does not stop. What came is kept as a draft.
    case answerTooLong(limitBytes: Int)
    /// One line of the event stream ran past ``SSEParser/largestLine`` without ending.
    case lineTooLong(limitBytes: Int)
    /// A proxy (`--endpoint`) refused the request with one of the original demo worker's own answers.
    case proxyRefused(ProxyRefusal, url: String)
    /// The answer came through a proxy (`--endpoint`) and stopped at an output limit, which the
    /// proxy may have set itself.
    case incompleteThroughProxy(maxOutputTokens: Int)

    package var errorDescription: String? {
        switch self {
        case .noKey:
            return "No API key is set; export OPENAI_API_KEY=… (or use --endpoint with a proxy that holds the key) and run the command again."
        case .http(let status, let message, let code, let model, let keySuffix):
            return Self.describeHTTP(status: status, message: message, code: code, model: model, keySuffix: keySuffix)
        case .notFound(let url, let message, let api):
            let said = message.map { ": \($0)" } ?? ""
            let hint =
                api == .responses
                ? "check OPENAI_BASE_URL / --endpoint, or use --api chat for a server without the Responses API"
                : "check OPENAI_BASE_URL / --endpoint"
            return "Nothing answers at \(url) (404\(said)); \(hint)."
        case .notAStream(let status, let firstLine, let host):
            let line = firstLine.isEmpty ? "an empty body" : "“\(firstLine)”"
            return
                "\(host) answered HTTP \(status) with \(line) instead of a model stream; check --endpoint / OPENAI_BASE_URL and any proxy in between."
        case .transport(let error, let host):
            switch error {
            case .hostNotFound: return "Cannot find the host \(host); check the network connection and OPENAI_BASE_URL."
            case .cannotConnect:
                return "Cannot connect to \(host) (connection refused or unreachable); check that the server is running and the URL is right."
            case .tls: return "The secure connection to \(host) failed (TLS); check the system clock, or a proxy that intercepts HTTPS."
            case .timedOut: return "\(host) sent nothing for too long and the request timed out; try /retry, or raise --timeout for a slow model."
            case .connectionLost:
                return "The connection to \(host) dropped before the answer was complete; the plan is unchanged; type /retry to ask again."
            case .other(let text): return "The request to \(host) failed (\(text)); try /retry."
            case .headersTooLarge(let limit):
                return
                    "\(host) sent more than \(Self.size(limit)) of response headers, far more than any model server does, so the request was stopped; check --endpoint / OPENAI_BASE_URL and any proxy in between."
            }
        case .incomplete(let reason, let limit):
            if reason == "max_output_tokens" {
                return
                    "The answer stopped at the output limit of \(limit) tokens; the partial text is kept as a draft: /continue finishes it, or raise --max-output-tokens."
            }
            return "The answer stopped early (\(reason ?? "no reason given")); the plan is unchanged; try /retry."
        case .nothingWritten(let limit, let stated):
            let limitSaid = stated ? "the output limit of \(limit) tokens the response states" : "the output limit of \(limit) tokens"
            let raise =
                stated
                ? "that limit is not the one this tool asked for, so a proxy or the server set it: ask whoever runs it to allow more"
                : "raise it with --max-output-tokens (e.g. --max-output-tokens \(min(128_000, max(limit * 2, 16_000)))) when you start or resume the session"
            return
                "The model used \(limitSaid) before writing any text (its reasoning counts against the limit), so there is no draft to continue; the plan is unchanged; \(raise)."
        case .failed(let message, let code) where Self.isQuota(code: code, message: message),
            .streamError(let message, let code) where Self.isQuota(code: code, message: message):
            return Self.quotaSentence
        case .failed(let message, let code) where Self.isTooLarge(code: code, message: message),
            .streamError(let message, let code) where Self.isTooLarge(code: code, message: message):
            return Self.tooLargeSentence(message)
        case .failed(let message, let code):
            return "The model could not finish the answer (\(message ?? code ?? "no reason given")); the plan is unchanged; try /retry."
        case .streamError(let message, let code):
            return "The server reported an error mid-answer (\(message ?? code ?? "no details")); the plan is unchanged; try /retry."
        case .refusal(let text):
            let shown = text.isEmpty ? "" : ": “\(text.prefix(200))”"
            return "The model declined to write this plan\(shown); rephrase the request and try again."
        case .cutOff:
            return "The answer was cut off before it finished; the plan is unchanged; type /retry to ask again."
        case .emptyAnswer:
            return "The model answered with no text; the plan is unchanged; try /retry or another --model."
        case .localServerDown(let address, let died?):
            return
                "The offline model's server died at start (\(died)), so nothing answers on \(address); reinstall it with scripts/local-model install --rebuild, then scripts/local-model start."
        case .localServerDown(let address, nil):
            return "The offline model is not running on \(address); start it with scripts/local-model start (after scripts/local-model install)."
        case .answerTooLong(let limit):
            return
                "The answer passed \(Self.size(limit)), far longer than any lesson plan, so it was stopped; the text so far is kept as a draft; type /retry to ask again."
        case .lineTooLong(let limit):
            return
                "The server sent a line of more than \(Self.size(limit)) without ending it, which no model stream does, so the answer was stopped; check --endpoint / OPENAI_BASE_URL and any proxy in between."
        case .deadline(let seconds):
            return
                "The answer took longer than the \(Int(seconds.rounded())) s limit and was stopped; the plan is unchanged; type /retry, or raise --deadline."
        case .proxyRefused(let refusal, let url):
            return refusal.sentence(url: url)
        case .incompleteThroughProxy(let limit):
            return
                "The answer stopped at an output limit: the proxy at --endpoint may set max_output_tokens itself (the original demo's worker uses 900 when none is sent, this tool asked for \(limit)); the partial text is kept as a draft and /continue finishes it."
        }
    }

    /// Whether the service says the key's money is spent: sending again cannot help.
    static func isQuota(code: String?, message: String?) -> Bool {
        code == "insufficient_quota" || message?.lowercased().contains("exceeded your current quota") == true
    }

    /// Whether the service says the request is bigger than its per-minute token limit (TPM): waiting cannot help.
    static func isTooLarge(code: String?, message: String?) -> Bool {
        let said = message?.lowercased() ?? ""
        return code == "request_too_large" || said.contains("request too large") || said.contains("tokens per min")
    }

    static let quotaSentence =
        "The API key's quota is used up; check the plan and billing at https://platform.openai.com/settings/organization/billing."

    static func tooLargeSentence(_ message: String?) -> String {
        let said = message.map { " (\($0))" } ?? ""
        return
            "The request is larger than the model's limit allows\(said); sending it again will not help: shorten the plan's inputs or lower --max-output-tokens, or ask for a higher limit for the organization."
    }

    /// A byte count as people say it: "4 MB", "100 KB".
    static func size(_ bytes: Int) -> String {
        bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MB" : "\(bytes / 1024) KB"
    }

    /// The same failure told for an answer that came through a proxy (`--endpoint`): an output
    /// limit there may be the proxy's, which `--max-output-tokens` cannot raise.
    package var throughProxy: ModelError {
        if case .incomplete("max_output_tokens", let limit) = self { return .incompleteThroughProxy(maxOutputTokens: limit) }
        return self
    }

    private static func describeHTTP(status: Int, message: String?, code: String?, model: String, keySuffix: String?)
        -> String
    {
        let said = message.map { ": \($0)" } ?? ""
        switch status {
        case 401:
            let key = keySuffix.map { " (key ending …\($0))" } ?? ""
            return "The API key was rejected\(key); check OPENAI_API_KEY or create a new key."
        case 403:
            return "The key is not allowed to do this (403\(said)); check the project's permissions for model \(model)."
        case 404:
            return "The model “\(model)” was not found or this key cannot use it (404); choose another with --model or LESSONPLAN_MODEL."
        case 429 where isQuota(code: code, message: message):
            return quotaSentence
        case 413 where isTooLarge(code: code, message: message), 429 where isTooLarge(code: code, message: message):
            return tooLargeSentence(message)
        case 413:
            // Not the model's token limit: a server or proxy (`--endpoint`) that takes no request body this big.
            return
                "The server refused the request as too large (413\(said)); sending it again will not help: use fewer or shorter sources, or ask whoever runs the server to accept larger requests."
        case 429:
            return "The server is rate limiting requests (429\(said)); wait a minute, then type /retry."
        case 408:
            return "The server gave up waiting for the request (408); type /retry."
        case 400:
            return "The server refused the request (400\(said)); check --model and --max-output-tokens."
        case 500...599:
            return "The server had an error (\(status)\(said)); wait a moment, then type /retry."
        default:
            return "The server answered HTTP \(status)\(said); check OPENAI_BASE_URL / --endpoint."
        }
    }
}

/// The original demo's worker (`POST /lessonplan`) answers these in its own words: plain text, or
/// `{"error": "Missing input"}`, never OpenAI's error object.
package enum ProxyRefusal: String, Sendable, Equatable, CaseIterable {
    /// 400 `{"error": "Missing input"}`: the body had no `input`.
    case missingInput
    /// 400 `Bad JSON`: the body did not parse.
    case badJSON
    /// 405 `Method not allowed`: it only takes POST.
    case methodNotAllowed
    /// 404 `Not found`: nothing at this path.
    case notFound

    /// The path the original demo's worker answers at.
    package static let workerPath = "/lessonplan"

    /// Which refusal an error answer is, from its status and body; nil for anything else.
    /// - Parameters:
    ///   - message: the body's `error` when it is a string (the worker's JSON form).
    ///   - firstLine: the body's first line, for the worker's plain-text answers.
    ///   - isOpenAIError: whether the body is OpenAI's `{"error": {...}}` object, which is the
    ///     upstream API speaking through the proxy, not the proxy itself.
    static func recognise(status: Int, message: String?, firstLine: String, isOpenAIError: Bool) -> ProxyRefusal? {
        guard !isOpenAIError else { return nil }
        switch status {
        case 400 where message == "Missing input": return .missingInput
        case 400 where firstLine == "Bad JSON": return .badJSON
        case 405: return .methodNotAllowed
        case 404: return .notFound
        default: return nil
        }
    }

    func sentence(url: String) -> String {
        switch self {
        case .missingInput:
            return
                "The proxy at \(url) found no input in the request (400 “Missing input”); it takes the Responses API body, so leave out --api chat, or check that nothing in between rewrites the body."
        case .badJSON:
            return
                "The proxy at \(url) could not read the request as JSON (400 “Bad JSON”); check that nothing between this machine and the proxy rewrites or cuts the body."
        case .methodNotAllowed:
            return
                "The proxy at \(url) takes only POST (405 “Method not allowed”); a redirect (http:// to https://, or a missing or extra slash) probably turned the POST into a GET: give --endpoint the final URL."
        case .notFound:
            return
                "Nothing answers at \(url) (404 “Not found”): the endpoint's URL path is probably wrong; the original demo's worker answers only at \(Self.workerPath), e.g. --endpoint https://your-worker.example.workers.dev\(Self.workerPath)."
        }
    }
}
