import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import Synchronization

/// An in-memory model server for the engine's tests: a queue of steps, each answering one request as the
/// OpenAI Responses API would (a stream, an HTTP error, a stream that drops or never ends), then passing
/// plans paced to the minutes the prompt asks for. No socket, no Python, no real waiting.
package final class ScriptedModel: HTTPTransport {
    /// What one request gets.
    package enum Step: Sendable {
        /// A plan passing the check for the prompt's minutes, with a `Plan #n` line (n = the request's number).
        case plan
        /// A stream whose text deltas spell this text, then `response.completed`.
        case text(String)
        /// A stream that ends `response.incomplete` for `reason` after spelling `text`.
        case incomplete(text: String, reason: String)
        /// An HTTP error with an OpenAI-style body (the server's default sentence for the status unless given).
        case error(status: Int, headers: [String: String] = [:], message: String? = nil, type: String? = nil, code: String? = nil)
        /// A plan's stream that drops (the connection is lost) after this many text deltas.
        case cut(afterDeltas: Int)
        /// A plan's stream that sends its first delta and then nothing more until the request is cancelled.
        case trickle
        /// A plan whose body waits until ``open()`` is called.
        case held
    }

    private let queue: Mutex<[Step]>
    private let log = Mutex<[HTTPRequest]>([])
    private let cancelled = Counter()
    private let gate = Gate()
    /// Opened when a `.trickle` body has sent its delta and begun to wait.
    private let trickling = Gate()

    package init(_ steps: [Step] = []) {
        queue = Mutex(steps)
    }

    /// Queues more steps; each answers the next request, in order, then `.plan` applies.
    package func script(_ steps: [Step]) {
        queue.withLock { $0 += steps }
    }

    /// Lets a `.held` step's body go on.
    package func open() { gate.open() }

    /// Returns once a `.trickle` body has sent its first delta and gone quiet.
    package func trickleStarted() async { await trickling.wait() }

    /// Forgets the requests sent so far (the steps still queued stay).
    package func resetLog() { log.withLock { $0 = [] } }

    /// The bodies of the requests sent so far, parsed, in order.
    package var requests: [JSONValue] {
        log.withLock { $0 }.map { (try? JSONValue.parse($0.body)) ?? .null }
    }

    /// Each request's `input`, as sent.
    package var inputs: [String] { requests.map { $0["input"]?.stringValue ?? "" } }

    /// Each request's `instructions`, as sent.
    package var instructions: [String] { requests.map { $0["instructions"]?.stringValue ?? "" } }

    /// How many answers' bodies saw their request cancelled while they were still being read.
    package var cancelledBodies: Int { cancelled.value.withLock { $0 } }

    package func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let number = log.withLock {
            $0.append(request)
            return $0.count
        }
        let step = queue.withLock { $0.isEmpty ? Step.plan : $0.removeFirst() }
        let plan = { PlanFixtures.passing(minutes: PlanFixtures.requestedMinutes(in: request.body) ?? 45, number: number) }
        let stream = HTTPResponseHead(status: 200, headers: ["content-type": "text/event-stream"])
        switch step {
        case .plan:
            return HTTPStreamingResponse(head: stream, body: HTTPBody(Body([SSEFixtures.responsesStream(text: plan())])))
        case .text(let text):
            return HTTPStreamingResponse(head: stream, body: HTTPBody(Body([SSEFixtures.responsesStream(text: text)])))
        case .incomplete(let text, let reason):
            // The response states the limit the request set, as OpenAI's does.
            let limit = ((try? JSONValue.parse(request.body))?["max_output_tokens"]?.intValue).map(String.init) ?? "4000"
            let data = String(decoding: SSEFixtures.responsesStream(text: text, ending: .incomplete(reason: reason)), as: UTF8.self)
                .replacingOccurrences(of: #""max_output_tokens":4000"#, with: #""max_output_tokens":\#(limit)"#)
            return HTTPStreamingResponse(head: stream, body: HTTPBody(Body([Data(data.utf8)])))
        case .error(let status, let headers, let message, let type, let code):
            let (defaultMessage, defaultType, defaultCode) = Self.defaults(status)
            let codeJSON = (code ?? defaultCode).map { SSEFixtures.jsonString($0) } ?? "null"
            let body =
                #"{"error":{"message":\#(SSEFixtures.jsonString(message ?? defaultMessage)),"type":\#(SSEFixtures.jsonString(type ?? defaultType)),"param":null,"code":\#(codeJSON)}}"#
            var fields = headers.reduce(into: ["content-type": "application/json"]) { $0[$1.key.lowercased()] = $1.value }
            fields["content-length"] = String(body.utf8.count)
            return HTTPStreamingResponse(head: HTTPResponseHead(status: status, headers: fields), body: HTTPBody(Body([Data(body.utf8)])))
        case .cut(let deltas):
            return HTTPStreamingResponse(head: stream, body: HTTPBody(Body([Self.prefix(of: plan(), deltas: deltas)], then: .connectionLost)))
        case .trickle:
            let first = Self.prefix(of: plan(), deltas: 1)
            return HTTPStreamingResponse(head: stream, body: HTTPBody(Body([first], thenHang: cancelled, announcing: trickling)))
        case .held:
            return HTTPStreamingResponse(
                head: stream, body: HTTPBody(Body([SSEFixtures.responsesStream(text: plan())], after: gate)))
        }
    }

    /// The status's error sentence, type and code as OpenAI writes them (the fake server's table).
    private static func defaults(_ status: Int) -> (String, String, String?) {
        switch status {
        case 429:
            (
                "Rate limit reached for gpt-5.2 on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.",
                "requests", "rate_limit_exceeded"
            )
        case 500: ("The server had an error while processing your request. Sorry about that!", "server_error", nil)
        case 503: ("The engine is currently overloaded, please try again later.", "server_error", nil)
        default: ("HTTP \(status)", "server_error", nil)
        }
    }

    /// A plan's stream up to (not including) its `deltas + 1`-th text delta.
    private static func prefix(of text: String, deltas: Int) -> Data {
        let whole = String(decoding: SSEFixtures.responsesStream(text: text), as: UTF8.self)
        let marker = "event: response.output_text.delta\n"
        var end = whole.endIndex
        var search = whole.startIndex
        for index in 0...deltas {
            guard let found = whole.range(of: marker, range: search..<whole.endIndex) else { break }
            if index == deltas { end = found.lowerBound }
            search = found.upperBound
        }
        return Data(whole[..<end].utf8)
    }

    /// A count shared by the bodies that report to it.
    private final class Counter: Sendable {
        let value = Mutex(0)
    }

    /// Opened once by the test; every body waiting on it goes on.
    private final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
        func open() {
            let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
        func wait() async {
            await withCheckedContinuation { continuation in
                let go = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if go { continuation.resume() }
            }
        }
    }

    /// A body: its chunks, then the end, a dropped connection, or no end until cancelled.
    private final class Body: HTTPBodySource {
        private let remaining: Mutex<[Data]>
        private let failure: TransportError?
        private let hang: Counter?
        private let gate: Gate?
        private let announce: Gate?

        init(
            _ chunks: [Data], then failure: TransportError? = nil, thenHang hang: Counter? = nil, announcing announce: Gate? = nil,
            after gate: Gate? = nil
        ) {
            remaining = Mutex(chunks)
            self.failure = failure
            self.hang = hang
            self.announce = announce
            self.gate = gate
        }

        func next() async throws -> Data? {
            if let gate { await gate.wait() }
            if let chunk = remaining.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return chunk }
            if let failure { throw failure }
            if let hang {
                announce?.open()
                do {
                    while true { try await Task.sleep(for: .seconds(3600)) }
                } catch {
                    hang.value.withLock { $0 += 1 }
                    throw error
                }
            }
            return nil
        }
    }
}

/// A clock for a turn's timers (its deadline, the slow-turn notice): a wait of at most `firesWithin` seconds
/// ends at once, a longer one lasts until its task is cancelled, so a test picks which timer fires without
/// waiting for either.
package struct TimerClock: RetryClock {
    package let firesWithin: Double
    /// Awaited before a wait that fires ends, so a timer fires only once the test's moment has come.
    private let when: @Sendable () async -> Void

    package init(firesWithin: Double = 0, when: @escaping @Sendable () async -> Void = {}) {
        self.firesWithin = firesWithin
        self.when = when
    }

    package func now() -> Date { Date(timeIntervalSince1970: 1_800_000_000) }
    package func randomFraction() -> Double { 0.5 }
    package func sleep(seconds: Double) async throws {
        if seconds <= firesWithin {
            await when()
            try Task.checkCancellation()
            return
        }
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}
