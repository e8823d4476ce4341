import Foundation

/// One HTTP request, as the library hands it to whatever transport the executable injects.
public struct HTTPRequest: Sendable, Equatable {
    public var url: URL
    public var method: String
    /// Header fields; names are sent as given.
    public var headers: [String: String]
    public var body: Data
    /// Longest silence allowed between bytes before the request fails as timed out.
    public var idleTimeout: TimeInterval

    public init(
        url: URL, method: String = "POST", headers: [String: String] = [:], body: Data = Data(),
        idleTimeout: TimeInterval = 120
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.idleTimeout = idleTimeout
    }
}

/// Status line and headers of a response, available before any of its body.
public struct HTTPResponseHead: Sendable, Equatable {
    public var status: Int
    /// Header fields with lower-cased names.
    public var headers: [String: String]

    public init(status: Int, headers: [String: String]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }

    /// A header's value, looked up case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A response whose body arrives chunk by chunk, as the network delivers it.
public struct HTTPStreamingResponse: Sendable {
    public var head: HTTPResponseHead
    /// The body's chunks. Chunk boundaries carry no meaning. Ends by throwing a ``TransportError``
    /// (or `CancellationError` when the consuming task is cancelled).
    public var body: AsyncThrowingStream<Data, any Error>

    public init(head: HTTPResponseHead, body: AsyncThrowingStream<Data, any Error>) {
        self.head = head
        self.body = body
    }
}

/// The one seam between the library and the network, so tests can use a loopback server and the
/// executable can configure proxies and timeouts.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns as soon as the status and headers are in.
    ///
    /// Cancelling the calling task (or the task iterating the body) cancels the request at once.
    /// - Throws: ``TransportError`` for network failures, `CancellationError` when cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse
}

/// A request that never got a complete HTTP exchange, kept apart from what a server said.
public enum TransportError: Error, Equatable, Sendable {
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
    /// Any other transport failure, with the system's own description.
    case other(String)
}
