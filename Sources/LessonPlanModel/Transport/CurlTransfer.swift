import CCurl
import Foundation

/// One request's life, shared by `send`, libcurl's thread and the body's reader.
///
/// Awaiting head → streaming → ended. A cancel can come from either side at any point and wins at
/// once: whoever waits gets `CancellationError` straight away, and libcurl's thread stops at its
/// next step (woken from its poll, or from waiting for room in the buffer).
///
/// Unchecked Sendable: every property from `condition` on is only touched with its lock held;
/// `parser`, `headSeen` and `lastActivity` only ever by libcurl's thread.
final class CurlTransfer: @unchecked Sendable {
    /// What a test can check about the buffer: the bound held, and the producer did wait.
    struct Statistics: Equatable, Sendable {
        /// The most body bytes ever held for the reader at once.
        var peakBufferedBytes = 0
        /// How often libcurl's thread waited for the reader to make room.
        var producerWaits = 0
    }

    /// What the reader gets next, decided under the lock.
    private enum Next {
        case chunk(Data)
        case end
        case failure(any Error)
        case wait
    }

    /// The host named in errors.
    let host: String
    /// Body bytes held at most before libcurl's thread waits for the reader.
    let bufferLimit: Int

    /// Redirects come back as heads of their own: ``CurlTransport`` follows them itself.
    private var parser = ResponseHeadParser(followsRedirects: false)
    private var headSeen = false
    /// Header bytes so far, status lines included, against ``CurlTransport/largestHead``.
    private var headBytes = 0
    private var headTooLarge = false
    /// When libcurl last passed on a byte (or sent one), for the idle timeout.
    private(set) var lastActivity = ContinuousClock.now

    private let condition = NSCondition()
    private var headWaiter: CheckedContinuation<HTTPStreamingResponse, any Error>?
    private var chunkWaiter: CheckedContinuation<Data?, any Error>?
    private var buffered = ChunkQueue()
    /// libcurl's thread waits for room in `buffered` and has not been woken yet.
    private var producerWaiting = false
    private var headDelivered = false
    private var cancelled = false
    private var end: Result<Void, TransportError>?
    private var endReported = false
    private var multi: MultiHandle?
    private var stats = Statistics()

    init(host: String, bufferLimit: Int) {
        self.host = host
        self.bufferLimit = bufferLimit
    }

    var isCancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return cancelled
    }

    var statistics: Statistics {
        condition.lock()
        defer { condition.unlock() }
        return stats
    }

    // MARK: The caller's side

    /// Parks `send`'s continuation until the head arrives.
    /// - Returns: false when the request was cancelled already; the continuation is then resumed.
    func awaitHead(_ continuation: CheckedContinuation<HTTPStreamingResponse, any Error>) -> Bool {
        condition.lock()
        guard !cancelled else {
            condition.unlock()
            continuation.resume(throwing: CancellationError())
            return false
        }
        headWaiter = continuation
        condition.unlock()
        return true
    }

    /// Stops the request now, unless it has already ended.
    func cancel() {
        condition.lock()
        guard !cancelled, end == nil else {
            condition.unlock()
            return
        }
        cancelled = true
        let head = headWaiter
        let reader = chunkWaiter
        headWaiter = nil
        chunkWaiter = nil
        // Under the lock, so the handle cannot be cleaned up in between (see `detach`).
        if let multi {
            curl_multi_wakeup(multi.pointer)
        }
        condition.broadcast()
        condition.unlock()
        head?.resume(throwing: CancellationError())
        reader?.resume(throwing: CancellationError())
    }

    /// The next piece of the body: the oldest buffered one, or the next read when nothing is.
    func nextChunk() async throws -> Data? {
        if Task.isCancelled {
            cancel()
            throw CancellationError()
        }
        switch takeNext(orWait: nil) {
        case .chunk(let data): return data
        case .end: return nil
        case .failure(let error): throw error
        case .wait: break
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                switch takeNext(orWait: continuation) {
                case .chunk(let data): continuation.resume(returning: data)
                case .end: continuation.resume(returning: nil)
                case .failure(let error): continuation.resume(throwing: error)
                case .wait: break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Takes what the reader gets now; when that is nothing yet, parks `waiter` (if any) for the
    /// next read or the end.
    private func takeNext(orWait waiter: CheckedContinuation<Data?, any Error>?) -> Next {
        condition.lock()
        let ready = next()
        if case .wait = ready, let waiter {
            chunkWaiter = waiter
        }
        // Wake libcurl's thread only once half the buffer is free: one wake-up per half buffer,
        // not one per chunk, when the reader is the slower side. After unlocking, so it does not
        // wake only to wait for the lock.
        let wake = producerWaiting && buffered.byteCount <= bufferLimit / 2
        if wake {
            producerWaiting = false
        }
        condition.unlock()
        if wake {
            condition.signal()
        }
        return ready
    }

    /// Takes what the reader gets now. Call with the lock held.
    private func next() -> Next {
        if cancelled {
            return .failure(CancellationError())
        }
        if let chunk = buffered.popFirst() {
            return .chunk(chunk)
        }
        guard let end else { return .wait }
        if endReported { return .end }
        endReported = true
        switch end {
        case .success: return .end
        case .failure(let error): return .failure(error)
        }
    }

    // MARK: libcurl's side (its thread only)

    /// Remembers the multi handle so a cancel can wake its poll.
    /// - Returns: false when the request was cancelled meanwhile; then nothing is transferred.
    func attach(_ handle: MultiHandle) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !cancelled else { return false }
        multi = handle
        return true
    }

    /// Forgets the multi handle before it is cleaned up or reused.
    func detach() {
        condition.lock()
        multi = nil
        condition.unlock()
    }

    /// Something moved on the connection: the idle timeout starts again.
    func noteActivity() {
        lastActivity = ContinuousClock.now
    }

    /// One header line. Returns false to abort the transfer (cancelled).
    func receiveHeader(_ line: String) -> Bool {
        noteActivity()
        if !headSeen {
            headBytes += line.utf8.count
            if headBytes > CurlTransport.largestHead {
                headTooLarge = true
                return false
            }
        }
        // Trailers after the body's head are not part of it.
        guard !headSeen, let head = parser.push(line) else { return !isCancelled }
        headSeen = true
        return deliver(head)
    }

    /// Body bytes. Blocks while the buffer has no room for them; returns false to abort the
    /// transfer (cancelled).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if !headSeen {
            // A body always follows a complete head; this only guards against a server that
            // made libcurl skip the blank line.
            headSeen = true
            guard deliver(parser.head) else { return false }
        }
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        // A large read is copied before taking the lock, which the reader would otherwise wait
        // on for the length of the copy; small ones are packed into the last chunk under it.
        let copied = bytes.count >= ChunkQueue.packing ? Data(bytes: base, count: bytes.count) : nil
        condition.lock()
        if !buffered.isEmpty, buffered.byteCount + bytes.count > bufferLimit {
            // Full: wait until the reader has taken half. Reads are at most half the limit, so
            // this one then fits; an empty buffer takes any read, so none can wait forever.
            stats.producerWaits += 1
            while !cancelled, !buffered.isEmpty, buffered.byteCount > bufferLimit / 2 {
                producerWaiting = true
                condition.wait()
            }
            producerWaiting = false
        }
        guard !cancelled else {
            condition.unlock()
            return false
        }
        // After any wait for the reader: that was not the network's silence.
        noteActivity()
        if let reader = chunkWaiter {
            chunkWaiter = nil
            condition.unlock()
            reader.resume(returning: copied ?? Data(bytes: base, count: bytes.count))
            return true
        }
        if let copied {
            buffered.append(copied)
        } else {
            buffered.append(UnsafeRawBufferPointer(start: base, count: bytes.count))
        }
        stats.peakBufferedBytes = max(stats.peakBufferedBytes, buffered.byteCount)
        condition.unlock()
        return true
    }

    /// The transfer is over: tells whoever waits, and records the end for the reader.
    /// - Returns: whether it ended cleanly, so its connection may serve the next request.
    @discardableResult
    func finish(code: CURLcode, message: String) -> Bool {
        if code == CURLE_OK, !headSeen, parser.status > 0 {
            headSeen = true
            _ = deliver(parser.head)
        }
        condition.lock()
        multi = nil
        guard !cancelled else {
            condition.unlock()
            return false
        }
        // Our own limit, or libcurl's: one header line past 100 KB is "out of memory" to it, and
        // 300 KB of them a receive error, neither of which is what happened.
        let headersTooLarge =
            code != CURLE_OK && !headDelivered
            && (headTooLarge || (code == CURLE_OUT_OF_MEMORY && parser.status > 0)
                || message.hasPrefix("Too large response headers"))
        let error: TransportError? =
            code == CURLE_OK
            ? nil
            : headersTooLarge
                ? .headersTooLarge(limitBytes: CurlTransport.largestHead)
                : CurlTransport.transportError(for: code, message: message, host: host, afterHead: headDelivered)
        end = error.map { .failure($0) } ?? .success(())
        let head = headWaiter
        let reader = chunkWaiter
        headWaiter = nil
        chunkWaiter = nil
        if reader != nil {
            endReported = true
        }
        condition.unlock()
        head?.resume(throwing: error ?? TransportError.other("The server closed the connection without a response."))
        if let error {
            reader?.resume(throwing: error)
        } else {
            reader?.resume(returning: nil)
        }
        return error == nil
    }

    /// Hands the head to `send`. Returns false when nobody waits any more (cancelled).
    private func deliver(_ head: HTTPResponseHead) -> Bool {
        condition.lock()
        guard !cancelled, let waiter = headWaiter else {
            condition.unlock()
            return false
        }
        headWaiter = nil
        headDelivered = true
        condition.unlock()
        waiter.resume(returning: HTTPStreamingResponse(head: head, body: HTTPBody(CurlBody(transfer: self))))
        return true
    }
}

/// A curl response's body: reads from its transfer, and stops the transfer when dropped unfinished.
final class CurlBody: HTTPBodySource {
    let transfer: CurlTransfer

    init(transfer: CurlTransfer) {
        self.transfer = transfer
    }

    deinit {
        transfer.cancel()
    }

    func next() async throws -> Data? {
        try await transfer.nextChunk()
    }
}

/// Body bytes waiting for the reader, in the pieces libcurl wrote them.
///
/// A large piece keeps an allocation of its own: one copy out of libcurl's buffer, and memory the
/// allocator hands out again once the reader is done, where one growing buffer was copied as it
/// grew and faulted in fresh pages for every megabyte. Small pieces are packed together, so a
/// stream of tiny events does not queue up as tiny chunks.
struct ChunkQueue {
    /// Pieces below this size share a chunk of this capacity.
    static let packing = 16 * 1024

    private var chunks: [Data] = []
    private var head = 0
    /// Bytes in the queue.
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    /// Copies `bytes` in: packed into the last chunk when both are small, else a chunk of its own.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        guard bytes.count < Self.packing else {
            append(Data(bytes: base, count: bytes.count))
            return
        }
        let pointer = base.assumingMemoryBound(to: UInt8.self)
        if head < chunks.count, chunks[chunks.count - 1].count + bytes.count <= Self.packing {
            chunks[chunks.count - 1].append(pointer, count: bytes.count)
        } else {
            var chunk = Data(capacity: Self.packing)
            chunk.append(pointer, count: bytes.count)
            chunks.append(chunk)
        }
        byteCount += bytes.count
    }

    /// Queues a chunk as it is.
    mutating func append(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        chunks.append(chunk)
        byteCount += chunk.count
    }

    /// The oldest chunk, never empty; nil when the queue is.
    mutating func popFirst() -> Data? {
        guard head < chunks.count else { return nil }
        let chunk = chunks[head]
        // Let go of it here, so the reader holds the only reference.
        chunks[head] = Data()
        head += 1
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        }
        byteCount -= chunk.count
        return chunk
    }
}
