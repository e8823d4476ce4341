import Foundation

/// One HTTP request, as the library hands it to whatever transport the executable injects.
package struct HTTPRequest: Sendable, Equatable {
    package var url: URL
    package var method: String
    /// Header fields; names are sent as given.
    package var headers: [String: String]
    package var body: Data
    /// Longest silence allowed between bytes before the request fails as timed out.
    package var idleTimeout: TimeInterval
    /// Names of headers (any case) that carry credentials: a transport that follows a redirect
    /// to another host (scheme, name or port) leaves them out there. `Authorization`,
    /// `Proxy-Authorization` and `Cookie` are always treated so.
    package var originOnlyHeaders: Set<String>

    package init(
        url: URL, method: String = "POST", headers: [String: String] = [:], body: Data = Data(),
        idleTimeout: TimeInterval = 120, originOnlyHeaders: Set<String> = []
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.idleTimeout = idleTimeout
        self.originOnlyHeaders = originOnlyHeaders
    }
}

/// Status line and headers of a response, available before any of its body.
package struct HTTPResponseHead: Sendable, Equatable {
    package var status: Int
    /// Header fields with lower-cased names.
    package var headers: [String: String]

    package init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    /// A header's value, looked up case-insensitively.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A response whose body arrives chunk by chunk, as the network delivers it.
package struct HTTPStreamingResponse: Sendable {
    package var head: HTTPResponseHead
    /// The body's chunks. Chunk boundaries carry no meaning. Ends by throwing a ``TransportError``
    /// (or `CancellationError` when the consuming task is cancelled). Dropping it unread cancels
    /// the request.
    package var body: HTTPBody

    package init(head: HTTPResponseHead, body: HTTPBody) {
        self.head = head
        self.body = body
    }
}

/// A response body that is read at the pace of its reader.
///
/// The body pulls each chunk from its source when asked, so a transport can hold only a bounded
/// amount ahead of the reader and let the network wait (back-pressure) instead of piling the
/// answer up in memory, which a push-only `AsyncThrowingStream` cannot do. Iterate it once.
package struct HTTPBody: AsyncSequence, Sendable {
    package typealias Element = Data
    package typealias Failure = any Error

    /// Where the chunks come from; internal so tests can look at a transport's own source.
    let source: any HTTPBodySource

    package init(_ source: any HTTPBodySource) {
        self.source = source
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: source)
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let source: any HTTPBodySource

        /// The next chunk, never empty; nil once the body has ended.
        package mutating func next() async throws -> Data? {
            try await source.next()
        }
    }
}

/// What an ``HTTPBody`` reads from: a transport's buffer for one response.
///
/// Implementations cancel their request when the task calling ``next()`` is cancelled, and when
/// they are deallocated unfinished (the body was dropped).
package protocol HTTPBodySource: AnyObject, Sendable {
    /// The next chunk, never empty; nil at the end, and after the end has been reported once.
    /// Called by one reader at a time.
    /// - Throws: ``TransportError`` when the transfer failed, `CancellationError` when cancelled.
    func next() async throws -> Data?
}

/// The one seam between the library and the network, so tests can use a loopback server and the
/// executable can configure proxies and timeouts.
package protocol HTTPTransport: Sendable {
    /// Sends `request` and returns as soon as the status and headers are in.
    ///
    /// Cancelling the calling task (or the task iterating the body) cancels the request at once.
    /// - Throws: ``TransportError`` for network failures, `CancellationError` when cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse
}

/// A request that never got a complete HTTP exchange, kept apart from what a server said.
package enum TransportError: Error, Equatable, Sendable {
    /// The host name did not resolve.
    case hostNotFound(host: String)
    /// Nothing accepted the connection (refused, unreachable).
    case cannotConnect(host: String)
    /// The TLS handshake or certificate check failed.
    case tls(host: String)
    /// No byte arrived for the idle timeout.
    case timedOut
    /// The connection dropped after it had started.
    case connectionLost
    /// The response's headers ran past the transport's limit (bytes), before any body.
    case headersTooLarge(limitBytes: Int)
    /// Any other transport failure, with the system's own description.
    case other(String)
}
