import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real network: one `URLSession` of its own whose delegate hands each body on as it arrives.
///
/// Linux has no `URLSession.bytes(for:)`, so streaming goes through `URLSessionDataDelegate`:
/// `send` returns at `didReceive response`, and every `didReceive data` becomes a body chunk.
/// Proxies come from the environment (`HTTPS_PROXY`, `NO_PROXY`), which libcurl honours.
/// Chunks are buffered without limit when the consumer falls behind: model answers are small.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a transport with its own session: no cache, no cookies, no stored credentials.
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        let delegate = SessionDelegate()
        self.delegate = delegate
        // A nil queue gives the session its own serial queue, so a task's callbacks stay in order.
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit {
        // The session retains its delegate until invalidated; bodies still streaming may finish.
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let exchange = Exchange(host: request.url.host ?? request.url.absoluteString)
        let urlRequest = Self.urlRequest(for: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancellation may already have happened: then nothing is created at all.
                guard exchange.awaitHead(continuation) else { return }
                let task = session.dataTask(with: urlRequest)
                delegate.register(exchange, for: task)
                guard exchange.attach(task) else {
                    // Cancelled between the two steps; the continuation is already resumed.
                    delegate.unregister(task)
                    task.cancel()
                    return
                }
                task.resume()
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// The `URLRequest` for a request, with the idle timeout in the form Linux understands.
    static func urlRequest(for request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        if !request.body.isEmpty {
            urlRequest.httpBody = request.body
        }
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        // swift-corelibs-foundation arms its idle timer with Int(timeoutInterval) * 1000 ms, so a
        // fraction of a second would become 0 ms and fire at once: round up to whole seconds.
        urlRequest.timeoutInterval = max(1, request.idleTimeout.rounded(.up))
        return urlRequest
    }
}

// MARK: - One request's life

/// The state one request goes through, shared by `send`, the delegate and the body's consumer.
///
/// Idle → awaiting head → streaming → finished; cancellation can arrive from either side at any
/// point, including before the data task exists, and always wins at once.
private final class Exchange: Sendable {
    private enum Phase {
        /// `send` has not yet handed over its continuation.
        case idle
        case awaitingHead(CheckedContinuation<HTTPStreamingResponse, any Error>)
        case streaming(AsyncThrowingStream<Data, any Error>.Continuation)
        case finished
    }

    private struct State {
        var phase = Phase.idle
        var task: URLSessionDataTask?
        var cancelled = false
    }

    /// The host named in errors.
    let host: String
    private let state = Mutex(State())

    init(host: String) {
        self.host = host
    }

    /// Parks `send`'s continuation until the head arrives.
    /// - Returns: false when the request was cancelled already; the continuation is then resumed.
    func awaitHead(_ continuation: CheckedContinuation<HTTPStreamingResponse, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if state.cancelled {
                state.phase = .finished
                return true
            }
            state.phase = .awaitingHead(continuation)
            return false
        }
        if cancelled {
            continuation.resume(throwing: CancellationError())
        }
        return !cancelled
    }

    /// Remembers the data task so a later cancellation can stop it.
    /// - Returns: false when the request was cancelled meanwhile; the caller drops the task.
    func attach(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.task = task
            return true
        }
    }

    /// Stops the request now: whoever waits (for the head or the next chunk) gets `CancellationError`.
    func cancel() {
        let (phase, task) = state.withLock { state in
            state.cancelled = true
            let phase = state.phase
            let task = state.task
            state.phase = .finished
            state.task = nil
            return (phase, task)
        }
        task?.cancel()
        switch phase {
        case .awaitingHead(let continuation):
            continuation.resume(throwing: CancellationError())
        case .streaming(let continuation):
            // Called from the stream's onTermination, this turns the consumer's silent end into
            // a thrown CancellationError, as the transport contract promises.
            continuation.finish(throwing: CancellationError())
        case .idle, .finished:
            break
        }
    }

    /// The head is in: `send` returns it with a body stream that the delegate will feed.
    /// - Returns: false when nobody waits any more (cancelled), so the transfer should stop.
    func receive(head: HTTPResponseHead) -> Bool {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let waiting: CheckedContinuation<HTTPStreamingResponse, any Error>? = state.withLock { state in
            guard case .awaitingHead(let waiting) = state.phase else { return nil }
            state.phase = .streaming(continuation)
            return waiting
        }
        guard let waiting else { return false }
        // Set before the consumer can see the stream, so an early stop still cancels the task.
        continuation.onTermination = { [self] termination in
            if case .cancelled = termination { cancel() }
        }
        waiting.resume(returning: HTTPStreamingResponse(head: head, body: HTTPBody(StreamSource(stream))))
        return true
    }

    /// A piece of the body arrived.
    func receive(data: Data) {
        let continuation: AsyncThrowingStream<Data, any Error>.Continuation? = state.withLock { state in
            guard case .streaming(let continuation) = state.phase else { return nil }
            return continuation
        }
        continuation?.yield(data)
    }

    /// The task ended, successfully when `error` is nil.
    func complete(error: (any Error)?) {
        let phase = state.withLock { state in
            let phase = state.phase
            state.phase = .finished
            state.task = nil
            return phase
        }
        switch phase {
        case .awaitingHead(let continuation):
            continuation.resume(
                throwing: error.map { URLSessionTransport.transportError(for: $0, host: host, afterHead: false) }
                    ?? TransportError.other("The server closed the connection without a response."))
        case .streaming(let continuation):
            if let error {
                continuation.finish(throwing: URLSessionTransport.transportError(for: error, host: host, afterHead: true))
            } else {
                continuation.finish()
            }
        case .idle, .finished:
            break
        }
    }
}

/// The pushed chunks of one response, read by one reader at a time.
///
/// Unchecked Sendable: the iterator is only used by the body's single reader, one call at a time.
/// Dropping it ends the stream, whose termination handler then cancels the data task.
private final class StreamSource: HTTPBodySource, @unchecked Sendable {
    private var iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator

    init(_ stream: AsyncThrowingStream<Data, any Error>) {
        iterator = stream.makeAsyncIterator()
    }

    func next() async throws -> Data? {
        try await iterator.next()
    }
}

// MARK: - Error mapping

extension URLSessionTransport {
    /// Translates what URLSession reports into the transport's own errors.
    ///
    /// On Linux most libcurl failures arrive as `NSURLErrorUnknown` with curl's own message, so
    /// that message is consulted too. After the head, a failure that is not a timeout means the
    /// body broke off, which is what `connectionLost` tells the user.
    static func transportError(for error: any Error, host: String, afterHead: Bool) -> any Error {
        if let error = error as? TransportError {
            return error
        }
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            return TransportError.other(error.localizedDescription)
        }
        let description = nsError.localizedDescription
        switch URLError.Code(rawValue: nsError.code) {
        case .cancelled:
            return CancellationError()
        case .timedOut:
            return TransportError.timedOut
        case .cannotFindHost, .dnsLookupFailed:
            return TransportError.hostNotFound(host: host)
        case .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet:
            return afterHead ? TransportError.connectionLost : TransportError.cannotConnect(host: host)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            return TransportError.tls(host: host)
        case .badServerResponse:
            // corelibs' name for curl's "Empty reply from server": the server hung up on us.
            return TransportError.connectionLost
        case .unknown, .cannotParseResponse:
            if let fromCurl = curlFailure(description, host: host, afterHead: afterHead) {
                return fromCurl
            }
            return afterHead ? TransportError.connectionLost : TransportError.other(description)
        default:
            return TransportError.other(description)
        }
    }

    /// Reads curl's message for the connection-setup failures corelibs leaves unclassified.
    ///
    /// Only before the head: afterwards even an "SSL_read" failure is a dropped connection.
    private static func curlFailure(_ message: String, host: String, afterHead: Bool) -> TransportError? {
        guard !afterHead else { return nil }
        let lowered = message.lowercased()
        if lowered.contains("ssl") || lowered.contains("tls") || lowered.contains("certificate") {
            return .tls(host: host)
        }
        if lowered.contains("could not resolve host") || lowered.contains("couldn't resolve host") {
            return .hostNotFound(host: host)
        }
        if lowered.contains("failed to connect") || lowered.contains("couldn't connect") {
            return .cannotConnect(host: host)
        }
        return nil
    }
}

// MARK: - The session delegate

/// Routes the session's callbacks to the exchange of the task they are about.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: Exchange]>([:])

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    func unregister(_ task: URLSessionTask) {
        _ = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask) else {
            completionHandler(.cancel)
            return
        }
        guard let http = response as? HTTPURLResponse else {
            exchange.complete(error: TransportError.other("The response was not HTTP."))
            completionHandler(.cancel)
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String {
                headers[name] = value
            }
        }
        let head = HTTPResponseHead(status: http.statusCode, headers: headers)
        completionHandler(exchange.receive(head: head) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.receive(data: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(error: error)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        // Model answers are never reused.
        completionHandler(nil)
    }
}
