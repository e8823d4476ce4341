import CCurl
import Foundation
import Synchronization

/// The network, driven through libcurl directly: one thread per request that sleeps in
/// `curl_multi_poll` until the socket has something to say.
///
/// Why not `URLSession`: on Linux, FoundationNetworking leaves the socket's write source armed
/// after the request has gone out, so it spins on a writable socket for as long as it waits for
/// the answer — a full CPU core during a reasoning model's silence, and on a two-core machine
/// running the local model, a model slowed tenfold. Here the thread blocks until data arrives,
/// the idle timeout (`CURLOPT_LOW_SPEED_TIME`) fires, or cancellation wakes it
/// (`curl_multi_wakeup`), which ends the request at once.
///
/// Proxies come from the environment as libcurl reads them (`https_proxy`, `HTTPS_PROXY`,
/// `http_proxy`, `NO_PROXY` …); certificates from the system store.
public final class CurlTransport: HTTPTransport {
    /// `curl_global_init` must run once before any thread uses libcurl.
    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    public init() {
        _ = Self.initialized
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let transfer = CurlTransfer(request: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.start(continuation)
            }
        } onCancel: {
            transfer.cancel()
        }
    }
}

// MARK: - One request

/// One request's life: idle → awaiting head → streaming → finished. Cancellation may come from
/// the caller or the body's consumer at any point and wins at once.
///
/// Unchecked: `response` is touched only by the transfer's own thread (inside libcurl's
/// callbacks, which run in `curl_multi_perform` on that thread); everything shared is in `state`.
private final class CurlTransfer: @unchecked Sendable {
    private enum Phase {
        case idle
        case awaitingHead(CheckedContinuation<HTTPStreamingResponse, any Error>)
        case streaming(AsyncThrowingStream<Data, any Error>.Continuation)
        case finished
    }

    private struct State {
        var phase = Phase.idle
        var cancelled = false
        /// Set while the transfer thread runs, so `cancel` can wake it.
        var multi: MultiHandle?
    }

    /// A multi handle that another thread may wake: `curl_multi_wakeup` is the one libcurl call
    /// documented as safe from any thread.
    private struct MultiHandle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
    }

    let request: HTTPRequest
    let host: String
    private let state = Mutex(State())
    /// The response being read, on the transfer thread only.
    private var response = ResponseHead()
    /// When a byte last arrived (or the request started), on the transfer thread only.
    private var lastActivity = ContinuousClock.now

    /// The status line and header fields of the current response, as they arrive.
    private struct ResponseHead {
        var status = 0
        var headers: [String: String] = [:]
        var delivered = false
    }

    init(request: HTTPRequest) {
        self.request = request
        host = request.url.host ?? request.url.absoluteString
    }

    // MARK: Either side

    /// Parks `send`'s continuation and starts the transfer thread.
    func start(_ continuation: CheckedContinuation<HTTPStreamingResponse, any Error>) {
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
            return
        }
        let thread = Thread { [self] in run() }
        thread.name = "lessonplan-http"
        thread.start()
    }

    /// Stops the request now: whoever waits (for the head or the next chunk) gets
    /// `CancellationError`, and the thread wakes up to close the connection.
    func cancel() {
        let phase = state.withLock { state in
            state.cancelled = true
            if let multi = state.multi { curl_multi_wakeup(multi.raw) }
            let phase = state.phase
            state.phase = .finished
            return phase
        }
        switch phase {
        case .awaitingHead(let continuation):
            continuation.resume(throwing: CancellationError())
        case .streaming(let continuation):
            continuation.finish(throwing: CancellationError())
        case .idle, .finished:
            break
        }
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    // MARK: The transfer thread

    private func run() {
        guard let easy = curl_easy_init() else {
            complete(.other("libcurl could not start a transfer"))
            return
        }
        guard let multi = curl_multi_init() else {
            curl_easy_cleanup(easy)
            complete(.other("libcurl could not start a transfer"))
            return
        }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer {
            state.withLock { $0.multi = nil }
            curl_multi_remove_handle(multi, easy)
            curl_easy_cleanup(easy)
            curl_multi_cleanup(multi)
            curl_slist_free_all(headerList)
        }
        let goOn = state.withLock { state in
            guard !state.cancelled else { return false }
            state.multi = MultiHandle(raw: multi)
            return true
        }
        guard goOn else { return }

        headerList = configure(easy)
        curl_multi_add_handle(multi, easy)
        // The idle timeout is kept here rather than by CURLOPT_LOW_SPEED_TIME, whose average
        // over several seconds would let a silence run seconds past the limit.
        let idle = Duration.milliseconds(Int(max(1, request.idleTimeout) * 1000))
        lastActivity = .now
        var running: Int32 = 1
        var silent = false
        while running > 0, !isCancelled {
            guard curl_multi_perform(multi, &running) == CURLM_OK else { break }
            guard running > 0 else { break }
            let quiet = ContinuousClock.now - lastActivity
            if quiet >= idle {
                silent = true
                break
            }
            // Sleeps until the socket is ready, a libcurl timer is due, the idle limit comes,
            // or cancel() wakes it.
            let wait = min(Duration.seconds(1), idle - quiet)
            curl_multi_poll(multi, nil, 0, Int32((wait / .milliseconds(1)).rounded(.up)), nil)
        }
        guard !isCancelled else { return }
        if silent {
            complete(.timedOut)
            return
        }

        var result = CURLE_OK
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
        }
        if result == CURLE_OK {
            if !response.delivered {
                // A body-less answer (a 204, say): the head is all there is.
                response.status = Int(ccurl_response_code(easy))
                guard response.status > 0 else {
                    complete(.other("The server closed the connection without a response."))
                    return
                }
                deliverHead()
            }
            complete(nil)
        } else {
            complete(CurlTransport.transportError(for: result, host: host, afterHead: response.delivered))
        }
    }

    /// Sets every option of the request on `easy`; returns the header list to free afterwards.
    private func configure(_ easy: UnsafeMutableRawPointer) -> UnsafeMutablePointer<curl_slist>? {
        ccurl_set_string(easy, CURLOPT_URL, request.url.absoluteString)
        ccurl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        ccurl_set_string(easy, CURLOPT_USERAGENT, "lessonplan")
        // Proxy CONNECT answers are not the server's.
        ccurl_set_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        switch request.method.uppercased() {
        case "GET":
            ccurl_set_long(easy, CURLOPT_HTTPGET, 1)
        case "POST":
            ccurl_set_long(easy, CURLOPT_POST, 1)
        default:
            ccurl_set_string(easy, CURLOPT_CUSTOMREQUEST, request.method)
        }
        if !request.body.isEmpty || request.method.uppercased() == "POST" {
            ccurl_set_size(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count))
            // Copied by libcurl, so the buffer need not outlive the call.
            if request.body.isEmpty {
                _ = "".withCString { ccurl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0)) }
            } else {
                _ = request.body.withUnsafeBytes { bytes in
                    ccurl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) })
                }
            }
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            list = curl_slist_append(list, "\(name): \(value)")
        }
        // No "Expect: 100-continue" round trip before the body.
        list = curl_slist_append(list, "Expect:")
        ccurl_set_list(easy, CURLOPT_HTTPHEADER, list)

        ccurl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(max(1, request.idleTimeout) * 1000))

        let me = Unmanaged.passUnretained(self).toOpaque()
        ccurl_set_data_function(easy, CURLOPT_HEADERFUNCTION, curlHeaderReceived)
        ccurl_set_pointer(easy, CURLOPT_HEADERDATA, me)
        ccurl_set_data_function(easy, CURLOPT_WRITEFUNCTION, curlBodyReceived)
        ccurl_set_pointer(easy, CURLOPT_WRITEDATA, me)
        return list
    }

    /// One header line (the status line included). Returns false to abort the transfer.
    fileprivate func receive(headerLine data: Data) -> Bool {
        lastActivity = .now
        let line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new response begins (after a 100 Continue, the final one).
            let parts = line.split(separator: " ", maxSplits: 2)
            response.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            response.headers = [:]
        } else if line.isEmpty {
            // The end of a head; an interim 1xx head is followed by the real one.
            if response.status >= 200, !response.delivered { return deliverHead() }
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            response.headers[name] = value
        }
        return !isCancelled
    }

    /// A piece of the body. Returns false to abort the transfer.
    fileprivate func receive(body data: Data) -> Bool {
        lastActivity = .now
        if !response.delivered, !deliverHead() { return false }
        let continuation: AsyncThrowingStream<Data, any Error>.Continuation? = state.withLock { state in
            guard case .streaming(let continuation) = state.phase else { return nil }
            return continuation
        }
        guard let continuation else { return false }
        continuation.yield(data)
        return true
    }

    /// The head is in: `send` returns it with a body stream this thread feeds.
    /// - Returns: false when nobody waits any more (cancelled).
    @discardableResult
    private func deliverHead() -> Bool {
        response.delivered = true
        let head = HTTPResponseHead(status: response.status, headers: response.headers)
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let waiting: CheckedContinuation<HTTPStreamingResponse, any Error>? = state.withLock { state in
            guard case .awaitingHead(let waiting) = state.phase else { return nil }
            state.phase = .streaming(continuation)
            return waiting
        }
        guard let waiting else { return false }
        // A consumer that stops reading cancels the request.
        continuation.onTermination = { [self] termination in
            if case .cancelled = termination { cancel() }
        }
        waiting.resume(returning: HTTPStreamingResponse(head: head, body: stream))
        return true
    }

    /// The transfer ended, successfully when `error` is nil.
    private func complete(_ error: TransportError?) {
        let phase = state.withLock { state in
            let phase = state.phase
            state.phase = .finished
            return phase
        }
        switch phase {
        case .awaitingHead(let continuation):
            continuation.resume(throwing: error ?? TransportError.other("The server closed the connection without a response."))
        case .streaming(let continuation):
            if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        case .idle, .finished:
            break
        }
    }
}

extension CurlTransport {
    /// Translates libcurl's result into the transport's own errors.
    ///
    /// After the head, any failure but a timeout means the body broke off: `connectionLost`.
    static func transportError(for code: CURLcode, host: String, afterHead: Bool) -> TransportError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case _ where afterHead:
            return .connectionLost
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .hostNotFound(host: host)
        case CURLE_COULDNT_CONNECT:
            return .cannotConnect(host: host)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
            return .tls(host: host)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            return .connectionLost
        default:
            let text = curl_easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
            return .other(text)
        }
    }
}

// libcurl takes plain C function pointers: these find their transfer through the user data.

private func curlHeaderReceived(
    _ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    guard let bytes, let user else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receive(headerLine: Data(bytes: bytes, count: length)) ? length : 0
}

private func curlBodyReceived(
    _ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    guard let bytes, let user else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(user).takeUnretainedValue()
    return transfer.receive(body: Data(bytes: bytes, count: length)) ? length : 0
}
