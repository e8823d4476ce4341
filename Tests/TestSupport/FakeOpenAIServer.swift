import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running `fake_openai.py` on 127.0.0.1: one per test, so scripted steps never mix.
///
/// ```swift
/// let server = try await FakeOpenAIServer()
/// try await server.script([.error(status: 429, headers: ["retry-after": "1"]), .plan])
/// // point the client at server.baseURL ...
/// let sent = try await server.requests()
/// ```
///
/// The process also exits by itself when the test process goes away (its stdin closes).
package final class FakeOpenAIServer: Sendable {
    /// What the server does for one model request. Each scripted step answers exactly one.
    package enum Step: Sendable, Equatable, Encodable {
        /// The default: a lesson plan paced to the request's minutes, with a `Plan #n` line.
        case plan
        /// Streams exactly this text.
        case text(String)
        /// The plan with a pause before every delta, for Ctrl-C tests.
        case slow(delayMs: Int = 200)
        /// The model declines; nil uses a stock refusal.
        case refusal(String? = nil)
        /// Streams `text` (nil: the plan), then ends as incomplete for `reason`.
        case incomplete(text: String? = nil, reason: String = "max_output_tokens")
        /// `afterDeltas` deltas, then `response.failed`.
        case failed(message: String, code: String = "server_error", afterDeltas: Int = 0)
        /// `afterDeltas` deltas, then an `error` event; the stream then ends cleanly.
        case errorEvent(message: String, code: String? = nil, afterDeltas: Int = 0)
        /// An HTTP error with OpenAI's `{"error": {...}}` body; nil fields take the status's defaults.
        case error(
            status: Int, message: String? = nil, type: String? = nil, code: String? = nil,
            headers: [String: String] = [:])
        /// An HTTP error with exactly this body (an object or array as JSON, a string as is).
        case errorBody(status: Int, body: JSONValue, headers: [String: String] = [:])
        /// An HTML error page, as a proxy in front of the API sends.
        case html(status: Int = 502)
        /// `afterDeltas` deltas, then the connection drops (a TCP reset with `reset`).
        case cut(afterDeltas: Int = 3, reset: Bool = false)
        /// Silence for `seconds`; with `afterDeltas`, after sending the head and that many deltas.
        case hang(seconds: Double = 30, afterDeltas: Int? = nil)
        /// Closes the connection without any response.
        case drop
        /// The plan as llama.cpp's `llama-server` streams it (no sequence numbers, `timings`).
        case llama
        /// Exactly these bytes (UTF-8 of `body`), `chunkSize` bytes per write.
        case raw(
            status: Int = 200, headers: [String: String] = [:], body: String, chunkSize: Int? = nil,
            delayMs: Int? = nil)
        /// Any step in the server's own JSON form, for kinds or options not named above.
        case custom([String: JSONValue])

        /// The same step with extra options, e.g. `["framing": "close", "event_lines": false]`.
        package func with(_ options: [String: JSONValue]) -> Step {
            .custom(wireForm.merging(options) { $1 })
        }

        /// The step as fake_openai.py reads it.
        package var wireForm: [String: JSONValue] {
            func headersJSON(_ headers: [String: String]) -> JSONValue { .object(headers.mapValues { .string($0) }) }
            func optional<T>(_ value: T?, _ wrap: (T) -> JSONValue) -> JSONValue? { value.map(wrap) }
            var form: [String: JSONValue?]
            switch self {
            case .plan: form = ["kind": "plan"]
            case .text(let text): form = ["kind": "text", "text": .string(text)]
            case .slow(let delay): form = ["kind": "slow", "delay_ms": .number(Double(delay))]
            case .refusal(let text): form = ["kind": "refusal", "text": optional(text, JSONValue.string)]
            case .incomplete(let text, let reason):
                form = ["kind": "incomplete", "text": optional(text, JSONValue.string), "reason": .string(reason)]
            case .failed(let message, let code, let after):
                form = [
                    "kind": "failed", "message": .string(message), "code": .string(code),
                    "after_deltas": .number(Double(after)),
                ]
            case .errorEvent(let message, let code, let after):
                form = [
                    "kind": "error_event", "message": .string(message), "code": optional(code, JSONValue.string),
                    "after_deltas": .number(Double(after)),
                ]
            case .error(let status, let message, let type, let code, let headers):
                form = [
                    "kind": "error", "status": .number(Double(status)), "message": optional(message, JSONValue.string),
                    "type": optional(type, JSONValue.string), "code": optional(code, JSONValue.string),
                    "headers": headersJSON(headers),
                ]
            case .errorBody(let status, let body, let headers):
                form = ["kind": "error", "status": .number(Double(status)), "body": body, "headers": headersJSON(headers)]
            case .html(let status): form = ["kind": "html", "status": .number(Double(status))]
            case .cut(let after, let reset):
                form = ["kind": "cut", "after_deltas": .number(Double(after)), "reset": .bool(reset)]
            case .hang(let seconds, let after):
                form = [
                    "kind": "hang", "seconds": .number(seconds),
                    "after_deltas": optional(after) { .number(Double($0)) },
                ]
            case .drop: form = ["kind": "drop"]
            case .llama: form = ["kind": "llama"]
            case .raw(let status, let headers, let body, let chunkSize, let delay):
                form = [
                    "kind": "raw", "status": .number(Double(status)), "headers": headersJSON(headers),
                    "body": .string(body), "chunk_size": optional(chunkSize) { .number(Double($0)) },
                    "delay_ms": optional(delay) { .number(Double($0)) },
                ]
            case .custom(let members): return members
            }
            return form.compactMapValues { $0 }
        }

        package func encode(to encoder: any Encoder) throws {
            try JSONValue.object(wireForm).encode(to: encoder)
        }
    }

    /// One request the server received (model endpoints and unknown paths; never control calls).
    package struct RecordedRequest: Sendable, Equatable, Decodable {
        /// 1-based, in arrival order; the default plan's `Plan #n` line carries the same number.
        package var number: Int
        package var method: String
        package var path: String
        /// Header fields with lower-cased names.
        package var headers: [String: String]
        /// The parsed JSON body; nil when there was none or it was not JSON (see `rawBody`).
        package var body: JSONValue?
        package var rawBody: String?
        /// The step kind that answered it; nil when the server rejected the request first.
        package var step: String?
        /// True once the server saw the client hang up before its answer was complete.
        package var clientClosed: Bool?
        /// Every header line as it arrived, `[name, value]`, repeats included.
        package var rawHeaders: [[String]]?

        enum CodingKeys: String, CodingKey {
            case number, method, path, headers, body, step
            case rawBody = "raw_body"
            case rawHeaders = "raw_headers"
            case clientClosed = "client_closed"
        }

        /// A header's value, looked up case-insensitively.
        package func header(_ name: String) -> String? { headers[name.lowercased()] }

        /// Every value sent under `name` (any case), one per header line.
        package func headerLines(_ name: String) -> [String] {
            (rawHeaders ?? []).filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
        }

        package var model: String? { body?["model"]?.stringValue }
        package var instructions: String? { body?["instructions"]?.stringValue }
        package var input: JSONValue? { body?["input"] }
        package var stream: Bool? { body?["stream"]?.boolValue }
        package var store: Bool? { body?["store"]?.boolValue }
        package var maxOutputTokens: Int? { body?["max_output_tokens"]?.intValue }

        /// All text the `input` carries: the string itself, or every text part of every item.
        package var inputText: String? {
            func texts(_ value: JSONValue) -> [String] {
                switch value {
                case .string(let text): [text]
                case .array(let items): items.flatMap(texts)
                case .object(let members):
                    members["text"]?.stringValue.map { [$0] } ?? members["content"].map(texts) ?? []
                default: []
                }
            }
            return input.map { texts($0).joined(separator: "\n") }
        }
    }

    /// Why the server could not be controlled.
    package enum ServerError: Error, CustomStringConvertible {
        case scriptNotFound
        case control(path: String, status: Int, body: String)

        package var description: String {
            switch self {
            case .scriptNotFound: "fake_openai.py is missing from the TestSupport resources"
            case .control(let path, let status, let body): "\(path) answered \(status): \(body)"
            }
        }
    }

    /// The port on 127.0.0.1.
    package var port: Int { child.port }
    /// `http://127.0.0.1:<port>`, for control calls and paths outside `/v1` (like `/lessonplan`).
    package var rootURL: URL { child.rootURL }
    /// `http://127.0.0.1:<port>/v1`, what a client uses as its API base URL.
    package let baseURL: URL

    private let child: LoopbackProcess
    private let session: URLSession
    private let stopped = Mutex(false)

    /// Launches the server and waits for its port.
    /// - Parameter verbose: log every request on stderr, for debugging a test.
    package init(verbose: Bool = false) async throws {
        guard let script = Bundle.module.url(forResource: "fake_openai", withExtension: "py") else {
            throw ServerError.scriptNotFound
        }
        _ = Self.loopbackBypassesProxies
        child = try await LoopbackProcess(
            program: "python3", arguments: [script.path, "--exit-with-stdin"] + (verbose ? ["--verbose"] : []),
            name: "fake_openai.py", hint: "run scripts/setup.")
        baseURL = child.rootURL.appendingPathComponent("v1")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        session = URLSession(configuration: configuration)
    }

    deinit {
        end()
    }

    /// Queues steps; each answers the next model request, in order, then the default applies.
    package func script(_ steps: [Step]) async throws {
        _ = try await control("POST", "/__script", body: JSONEncoder().encode(steps))
    }

    /// Every model request received so far, oldest first.
    package func requests() async throws -> [RecordedRequest] {
        try JSONDecoder().decode([RecordedRequest].self, from: await control("GET", "/__requests"))
    }

    /// Waits until the server has seen the client hang up on request `number` (1-based).
    ///
    /// Proves that a cancelled request really closed its connection. The limit only keeps a broken
    /// client from hanging the test run; it is not a timing assertion.
    /// - Returns: false when the client still had not hung up after `limit`.
    package func clientClosed(request number: Int, within limit: Duration = .seconds(20)) async throws -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        while clock.now < deadline {
            if try await requests().first(where: { $0.number == number })?.clientClosed == true {
                return true
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Lets a `raw` step held after its first bytes (`"hold_after"`) write the rest.
    package func release() async throws {
        _ = try await control("POST", "/__release")
    }

    /// Empties the step queue and the request log; numbering restarts at 1.
    package func reset() async throws {
        _ = try await control("POST", "/__reset")
    }

    /// Ends the server process without waiting for it to go; only the first call acts.
    package func end() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        session.invalidateAndCancel()
        child.end()
    }

    /// Ends the server process; with `wait`, returns only once it is gone and its port is closed.
    package func stop(wait: Bool = true) async {
        end()
        await child.stop(wait: wait)
    }

    private func control(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
        var request = URLRequest(url: rootURL.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw ServerError.control(path: path, status: status, body: String(decoding: data, as: UTF8.self))
        }
        return data
    }

    /// libcurl sends loopback requests through a proxy named in the environment unless NO_PROXY
    /// excludes them; tests must only ever reach 127.0.0.1. Runs once, before any test request.
    static let loopbackBypassesProxies: Void = {
        let environment = ProcessInfo.processInfo.environment
        let proxyNames = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        guard proxyNames.contains(where: { environment[$0] != nil }) else { return }
        for name in ["no_proxy", "NO_PROXY"] {
            let current = environment[name] ?? ""
            guard !current.split(separator: ",").contains("127.0.0.1") else { continue }
            setenv(name, current.isEmpty ? "127.0.0.1" : current + ",127.0.0.1", 1)
        }
    }()
}
