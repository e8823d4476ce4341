import CCurl
import Foundation
import Synchronization

/// The real network: libcurl driven directly, one dedicated thread per request, with back-pressure.
///
/// URLSession on Linux hands every libcurl read to its delegate queue without waiting, so an answer
/// that arrives faster than it is decoded piles up in memory (issue 6). Here the thread that runs
/// the transfer blocks in libcurl's write callback while the body's buffer is full: the socket then
/// fills and TCP slows the server down. That thread is our own, never one of the Swift
/// concurrency pool's.
///
/// Proxies come from the environment as libcurl reads them: `https_proxy` / `HTTPS_PROXY` for
/// https, `http_proxy` for http, `all_proxy` / `ALL_PROXY`, and `no_proxy` / `NO_PROXY`. Nothing
/// is added behind a request's back: no `Accept-Encoding` (bodies arrive as the server sent them)
/// and never `Expect: 100-continue`. A request to this machine (``LoopbackAddress``) never goes
/// through a proxy, so a key sent to a local server over plain http stays on the machine.
/// Redirects are followed here rather than by libcurl, which would send every custom header on
/// to any host: at most 5, from https only to https, and the request's
/// ``HTTPRequest/originOnlyHeaders`` only to its own scheme, host and port. Connections are kept
/// for the next request.
package final class CurlTransport: HTTPTransport {
    /// The most body bytes held for a reader that has fallen behind: two of libcurl's reads.
    package static let defaultBufferLimit = 512 * 1024
    /// libcurl's read size. Large, so a fast stream costs few callbacks; at most half the buffer,
    /// which is what the buffer frees before libcurl's thread goes on.
    static let largestRead = 256 * 1024

    private let userAgent: String
    private let bufferLimit: Int
    private let pool = HandlePool()

    /// - Parameters:
    ///   - userAgent: sent unless a request names its own `User-Agent`.
    ///   - bufferLimit: body bytes held ahead of the reader before the transfer waits for it.
    package init(userAgent: String = "lessonplan", bufferLimit: Int = CurlTransport.defaultBufferLimit) {
        self.userAgent = userAgent
        // A read is at most half the buffer, and libcurl may hand over 16 KB at once whatever
        // its read size: so never below 32 KB.
        self.bufferLimit = max(bufferLimit, 32 * 1024)
    }

    /// The most redirects followed for one request.
    package static let maxRedirects = 5
    /// The most bytes of response headers accepted: real servers send a few KB.
    package static let largestHead = 100 * 1024

    package func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        var current = request
        var redirects = 0
        while true {
            let response = try await sendOnce(current)
            guard let next = try Self.redirect(from: current, original: request, head: response.head) else {
                return response
            }
            guard redirects < Self.maxRedirects else {
                throw TransportError.other("Maximum (\(Self.maxRedirects)) redirects followed")
            }
            // The redirect's own body is not wanted: dropping the response ends its transfer.
            redirects += 1
            current = next
        }
    }

    /// The request a redirect asks for, or nil when `head` is not one to follow; the rules
    /// libcurl and browsers follow, with credentials kept to their own origin.
    /// - Throws: ``TransportError/other(_:)`` for a redirect that must not be followed.
    static func redirect(from request: HTTPRequest, original: HTTPRequest, head: HTTPResponseHead) throws(TransportError)
        -> HTTPRequest?
    {
        guard [301, 302, 303, 307, 308].contains(head.status), let location = head.header("location"),
            !location.isEmpty
        else { return nil }
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil
        else { throw .other("The server redirected to “\(location.prefix(200))”, which is not an http(s) address") }
        if original.url.scheme?.lowercased() == "https", scheme != "https" {
            throw .other("The server redirected from https to plain http, which is refused")
        }
        var next = original
        next.url = target
        let method = original.method.uppercased()
        if (head.status == 303 && method != "HEAD") || ([301, 302].contains(head.status) && method == "POST") {
            // As libcurl and browsers do: the body is not sent on.
            next.method = "GET"
            next.body = Data()
            next.headers = next.headers.filter { $0.key.lowercased() != "content-type" }
        } else {
            next.method = request.method
            next.body = request.body
        }
        if !sameOrigin(target, original.url) {
            let dropped = Set(
                original.originOnlyHeaders.union(["Authorization", "Proxy-Authorization", "Cookie"]).map { $0.lowercased() })
            next.headers = next.headers.filter { !dropped.contains($0.key.lowercased()) }
        }
        return next
    }

    /// Same scheme, host (as written, in any case) and port.
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int { url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80) }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && port(a) == port(b)
    }

    /// One exchange, no redirects followed.
    private func sendOnce(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        try Task.checkCancellation()
        let host = request.url.host ?? request.url.absoluteString
        guard Self.globalInit == CURLE_OK else {
            throw TransportError.other(String(cString: curl_easy_strerror(Self.globalInit)))
        }
        let transfer = CurlTransfer(host: host, bufferLimit: bufferLimit)
        let options = Options(
            userAgent: userAgent, readSize: min(bufferLimit / 2, Self.largestRead), pool: pool)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancellation may have come first: then no thread, no connection, nothing sent.
                guard transfer.awaitHead(continuation) else { return }
                let thread = Thread { Self.perform(request, transfer: transfer, options: options) }
                thread.name = "lessonplan-curl"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
    }

    /// libcurl's one-time global set-up. A static `let` is initialised exactly once, under the
    /// runtime's lock (`swift_once`), before first use: what curl_global_init needs, since it must
    /// not run twice at the same time.
    private static let globalInit: CURLcode = ccurl_global_init_default()

    /// What every transfer of this transport shares.
    private struct Options: Sendable {
        var userAgent: String
        var readSize: Int
        var pool: HandlePool
    }
}

// MARK: - One transfer on its own thread

extension CurlTransport {
    /// Runs one request to its end on the calling (dedicated) thread.
    ///
    /// A multi handle, polled here, rather than `curl_easy_perform`: `curl_multi_wakeup` lets a
    /// cancel interrupt the wait at once, where easy_perform would notice only at its next
    /// progress callback (about once a second while the server is silent). The multi handle also
    /// holds the connection cache, which goes back to the pool for the next request.
    private static func perform(_ request: HTTPRequest, transfer: CurlTransfer, options: Options) {
        guard let easy = curl_easy_init() else {
            transfer.finish(code: CURLE_OUT_OF_MEMORY, message: "libcurl could not start a transfer.")
            return
        }
        // libcurl writes its detailed message here; it must outlive the easy handle's use.
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: ccurl_error_size())
        errorBuffer.initialize(repeating: 0, count: ccurl_error_size())
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer {
            curl_easy_cleanup(easy)
            curl_slist_free_all(headerList)
            errorBuffer.deallocate()
        }
        // libcurl's detailed message when it wrote one (what URLSession passed on), else its generic one.
        func message(for code: CURLcode) -> String {
            errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        }

        headerList = Self.headerList(for: request)
        let setup = configure(
            easy, request: request, transfer: transfer, headers: headerList,
            errorBuffer: errorBuffer, options: options)
        guard setup == CURLE_OK else {
            transfer.finish(code: setup, message: message(for: setup))
            return
        }
        guard let multi = options.pool.take() ?? curl_multi_init().map(MultiHandle.init) else {
            transfer.finish(code: CURLE_OUT_OF_MEMORY, message: "libcurl could not start a transfer.")
            return
        }
        var outcome: (code: CURLcode, message: String?) = (CURLE_OK, nil)
        let added = curl_multi_add_handle(multi.pointer, easy)
        if added != CURLM_OK {
            outcome = (CURLE_FAILED_INIT, String(cString: curl_multi_strerror(added)))
        } else if transfer.attach(multi) {
            outcome = run(multi, easy: easy, transfer: transfer, idleTimeout: Self.idleTimeout(request))
            transfer.detach()
        }
        // Removing a transfer that has not finished closes its connection: the server sees us go.
        curl_multi_remove_handle(multi.pointer, easy)
        let clean = transfer.finish(code: outcome.code, message: outcome.message ?? message(for: outcome.code))
        if clean {
            options.pool.give(multi)
        } else {
            curl_multi_cleanup(multi.pointer)
        }
    }

    /// Drives the transfer until it ends, is cancelled or stays silent for the idle timeout;
    /// returns libcurl's result, with a message of its own when the result is not libcurl's.
    ///
    /// The idle timeout is kept here rather than with CURLOPT_LOW_SPEED_TIME: libcurl averages
    /// the speed over the last few seconds, request bytes included, so a 1-second limit fired
    /// after about 7. Time the write callback spends waiting for the reader is not silence.
    private static func run(
        _ multi: MultiHandle, easy: UnsafeMutableRawPointer, transfer: CurlTransfer, idleTimeout: Duration
    ) -> (code: CURLcode, message: String?) {
        let clock = ContinuousClock()
        var running: Int32 = 1
        var uploaded: curl_off_t = 0
        transfer.noteActivity()
        while !transfer.isCancelled {
            var status = curl_multi_perform(multi.pointer, &running)
            if status == CURLM_OK, running == 0 { break }
            if status == CURLM_OK {
                // Sending the request body counts as activity too.
                var sent: curl_off_t = 0
                if ccurl_getinfo_off_t(easy, CURLINFO_SIZE_UPLOAD_T, &sent) == CURLE_OK, sent != uploaded {
                    uploaded = sent
                    transfer.noteActivity()
                }
                let remaining = transfer.lastActivity.advanced(by: idleTimeout) - clock.now
                guard remaining > .zero else {
                    return (CURLE_OPERATION_TIMEDOUT, nil)
                }
                let milliseconds =
                    remaining.components.seconds * 1000
                    + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
                // Waits for the socket, libcurl's own timers, curl_multi_wakeup, or the idle deadline.
                status = curl_multi_poll(multi.pointer, nil, 0, Int32(min(1000, milliseconds)), nil)
            }
            if status != CURLM_OK {
                return (CURLE_FAILED_INIT, String(cString: curl_multi_strerror(status)))
            }
        }
        if transfer.isCancelled { return (CURLE_ABORTED_BY_CALLBACK, nil) }
        var result = CURLE_OK
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi.pointer, &queued) {
            if message.pointee.msg == CURLMSG_DONE {
                result = ccurl_message_result(message)
            }
        }
        return (result, nil)
    }

    /// "Name: value" lines for libcurl, plus the ones that keep it from adding its own.
    private static func headerList(for request: HTTPRequest) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        // To libcurl "Name:" means "do not send Name" and "Name;" sends it empty.
        let given = request.headers.sorted { $0.key < $1.key }.map { $0.value.isEmpty ? "\($0.key);" : "\($0.key): \($0.value)" }
        // libcurl sends `Expect: 100-continue` before large bodies, then waits up to a second for
        // an interim answer some servers never send.
        let lines = given + ["Expect:"]
        for line in lines {
            guard let longer = curl_slist_append(list, line) else {
                // Out of memory: libcurl left the list as it was. Send what we have.
                break
            }
            list = longer
        }
        return list
    }

    /// The request's idle timeout, within what libcurl and a poll can count.
    private static func idleTimeout(_ request: HTTPRequest) -> Duration {
        let seconds = request.idleTimeout.isFinite ? min(max(request.idleTimeout, 0.001), 86_400) : 86_400
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    /// Sets every option of one transfer; returns the first failure.
    private static func configure(
        _ easy: UnsafeMutableRawPointer, request: HTTPRequest, transfer: CurlTransfer,
        headers: UnsafeMutablePointer<curl_slist>?, errorBuffer: UnsafeMutablePointer<CChar>, options: Options
    ) -> CURLcode {
        var first = CURLE_OK
        func set(_ code: CURLcode) {
            if first == CURLE_OK { first = code }
        }
        func set(_ option: CURLoption, _ value: Int) { set(ccurl_setopt_long(easy, option, value)) }
        func set(_ option: CURLoption, _ value: String?) { set(ccurl_setopt_string(easy, option, value)) }

        // The callbacks find their transfer through this pointer; `perform` keeps it alive.
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        set(ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        set(ccurl_setopt_data_function(easy, CURLOPT_WRITEFUNCTION, curlWrite))
        set(ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        set(ccurl_setopt_data_function(easy, CURLOPT_HEADERFUNCTION, curlHeader))
        set(ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        set(ccurl_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers)))

        set(CURLOPT_URL, request.url.absoluteString)
        // Only the web: a base URL of file:// or ftp:// must not make libcurl read or fetch anything.
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects are followed by `send`, which keeps credentials to their own host.
        set(CURLOPT_FOLLOWLOCATION, 0)
        if LoopbackAddress.isLoopback(request.url) {
            // This machine never goes through a proxy: the key would cross the network in clear.
            set(CURLOPT_NOPROXY, "*")
        }
        set(CURLOPT_USERAGENT, options.userAgent)
        // Identity bodies only: libcurl adds no Accept-Encoding unless this names one.
        set(CURLOPT_ACCEPT_ENCODING, nil)
        // A proxy's CONNECT answer is not the server's: keep it out of the header callback.
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        // Threads and signals do not mix: no SIGALRM for name lookups.
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_TCP_KEEPALIVE, 1)
        set(CURLOPT_BUFFERSIZE, options.readSize)

        // Connecting may take as long as the idle timeout; silence afterwards is timed by `run`.
        set(CURLOPT_CONNECTTIMEOUT_MS, Int(idleTimeout(request) / .milliseconds(1)) + 1)

        switch request.method.uppercased() {
        case "GET":
            set(CURLOPT_HTTPGET, 1)
        case "HEAD":
            set(CURLOPT_NOBODY, 1)
        default:
            // libcurl copies the body now, so a redirect (307/308) can send it again.
            set(ccurl_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)))
            if request.body.isEmpty {
                set(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                request.body.withUnsafeBytes { bytes in
                    set(ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)))
                }
            }
            if request.method.uppercased() != "POST" {
                set(CURLOPT_CUSTOMREQUEST, request.method)
            }
        }
        return first
    }
}

// MARK: - libcurl's callbacks

/// Body bytes: handed to the transfer, which blocks this (libcurl's) thread while its buffer is
/// full. Returning less than all bytes aborts the transfer: how a cancel stops it mid-read.
private func curlWrite(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// One header line, status lines included, with its CRLF.
private func curlHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    return transfer.receiveHeader(line) ? length : 0
}

// MARK: - Handles

/// A libcurl multi handle, the owner of a connection cache.
///
/// Unchecked Sendable: libcurl lets a handle move between threads as long as one uses it at a
/// time. The pool hands each to one transfer at a time; other threads only ever call
/// `curl_multi_wakeup` on it, which libcurl allows from any thread.
struct MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}

/// Multi handles between requests, so the next request can reuse a kept-alive connection.
final class HandlePool: Sendable {
    private static let keep = 4
    private let idle = Mutex<[MultiHandle]>([])

    func take() -> MultiHandle? {
        idle.withLock { $0.popLast() }
    }

    /// Keeps a handle whose transfer ended cleanly; closes it when enough are kept.
    func give(_ handle: MultiHandle) {
        let kept = idle.withLock { handles in
            guard handles.count < Self.keep else { return false }
            handles.append(handle)
            return true
        }
        if !kept {
            curl_multi_cleanup(handle.pointer)
        }
    }

    deinit {
        for handle in idle.withLock({ $0 }) {
            curl_multi_cleanup(handle.pointer)
        }
    }
}

// MARK: - Error mapping

extension CurlTransport {
    /// Translates libcurl's result into the transport's own errors, the way the URLSession
    /// transport before it translated the same results as URLSession passed them on.
    ///
    /// After the head, any failure but a timeout means the body broke off, which is what
    /// `connectionLost` tells the user; even a TLS read error is a dropped connection then.
    /// - Parameter message: libcurl's own description, kept for failures without a case of their own.
    static func transportError(for code: CURLcode, message: String, host: String, afterHead: Bool) -> TransportError {
        if code == CURLE_OPERATION_TIMEDOUT {
            return .timedOut
        }
        if afterHead {
            return .connectionLost
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            return .hostNotFound(host: host)
        // A reset before any answer is what URLSession called "network connection lost", which
        // before the head meant no usable connection.
        case CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return .cannotConnect(host: host)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED:
            return .tls(host: host)
        // "Empty reply from server": the server hung up on us; a cut before the head is the same.
        case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            return .connectionLost
        default:
            return .other(message)
        }
    }
}
