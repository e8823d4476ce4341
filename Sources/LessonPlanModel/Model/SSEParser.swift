import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One dispatched server-sent event: what a blank line closes, whatever the network chunks were.
package struct SSEMessage: Equatable, Sendable {
    /// The `event:` name; nil when the stream gave none (the WHATWG default, "message").
    package var event: String?
    /// All `data:` lines of the event, joined with "\n".
    package var data: String
    /// The last event ID in effect, as WHATWG keeps it across events; nil when never set or reset.
    package var id: String?

    package init(event: String? = nil, data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
    }
}

/// Receives the events an ``SSEParser`` completes, in order.
///
/// Each event is offered as raw bytes first, so a reader that can take what it needs from them
/// (a text delta, say) skips making a string and a message of it: the hot path of a long answer.
package protocol SSEEventSink {
    /// An event's data (its `data` lines joined with LF), as raw bytes that are not yet checked
    /// as UTF-8 and stay valid only during the call.
    /// - Returns: true when that was all it took; false to receive the event as a message.
    mutating func take(rawData: UnsafeBufferPointer<UInt8>) -> Bool

    /// An event the raw bytes were not enough for.
    mutating func take(_ message: SSEMessage)
}

extension SSEEventSink {
    package mutating func take(rawData: UnsafeBufferPointer<UInt8>) -> Bool { false }
}

/// Collects messages for ``SSEParser/push(_:)`` and ``SSEParser/finish()``.
private struct MessageList: SSEEventSink {
    var messages: [SSEMessage] = []

    mutating func take(_ message: SSEMessage) {
        messages.append(message)
    }
}

/// Turns body bytes into server-sent events incrementally, so chunk boundaries never matter.
///
/// Follows the WHATWG event-stream rules: lines end with LF, CRLF or CR (also when the CR and the
/// LF arrive in different chunks), a blank line dispatches, `:` starts a comment, one space after
/// the field's colon is dropped, `data` lines are joined with "\n" and an event without data is
/// not dispatched. UTF-8 is decoded per complete line, so a character split across chunks arrives
/// whole; invalid bytes become U+FFFD. Unlike a browser, ``finish()`` still delivers a last event
/// that lacks its closing blank line, because a server that ends the body has nothing more to say.
///
/// Works on bytes with `memchr`, keeping a read offset into one buffer instead of copying each
/// line, and hands an event's only `data` line on from where it lies, because it sits on the hot
/// path of every streamed token.
package struct SSEParser: Sendable {
    /// The longest line, or event's data, accepted: a thousand times a long plan. A server that
    /// goes on past it is sending an endless line, and holding it would only fill memory.
    package static let largestLine = 8 * 1024 * 1024

    /// Whether a line or an event's data ran past ``largestLine``; the parser then ignores the
    /// rest of the stream (and has let go of what it held), and the caller should stop reading.
    package private(set) var overflowed = false

    /// Bytes not yet consumed start at `readOffset`; everything before it is spent.
    private var buffer: [UInt8] = []
    private var readOffset = 0
    /// Bytes from `readOffset` up to here are known to hold no line end, so they are not rescanned.
    private var scannedUpTo = 0
    /// The last line ended with a CR at the very end of the input, so a leading LF belongs to it.
    private var skipLeadingLF = false
    /// The stream may still open with a UTF-8 byte order mark, which WHATWG drops.
    private var atStreamStart = true

    /// The event being built.
    private var dataBytes: [UInt8] = []
    private var hasData = false
    /// The event's only data line so far, where it lies in the bytes `consumeLines` is reading;
    /// copied into `dataBytes` before those bytes go away (a second line, or the end of the call).
    private var dataInPlace: Range<Int>?
    /// The same for the event's name.
    private var eventInPlace: Range<Int>?
    private var eventBytes: [UInt8] = []
    private var lastEventID: String?

    /// The previous event name, reused so each event of the same type does not allocate a string.
    private var cachedEventBytes: [UInt8] = []
    private var cachedEventName: String?

    package init() {}

    /// Feeds the next chunk of the body and returns the events it completes, in order.
    package mutating func push(_ chunk: Data) -> [SSEMessage] {
        var list = MessageList()
        push(chunk, into: &list)
        return list.messages
    }

    /// Feeds the next chunk of the body and hands the events it completes to `sink`, in order.
    /// Once ``overflowed``, does nothing.
    package mutating func push<Sink: SSEEventSink>(_ chunk: Data, into sink: inout Sink) {
        guard !chunk.isEmpty, !overflowed else { return }
        pushBytes(chunk, into: &sink)
        if buffer.count - readOffset > Self.largestLine || dataBytes.count > Self.largestLine {
            overflowed = true
            buffer = []
            dataBytes = []
            readOffset = 0
            scannedUpTo = 0
            dataInPlace = nil
        }
    }

    private mutating func pushBytes<Sink: SSEEventSink>(_ chunk: Data, into sink: inout Sink) {
        guard !chunk.isEmpty else { return }

        if readOffset == buffer.count && !atStreamStart {
            // Nothing pending: read the chunk in place and keep only its unfinished last line.
            buffer.removeAll(keepingCapacity: true)
            readOffset = 0
            chunk.withUnsafeBytes { raw in
                let bytes = raw.assumingMemoryBound(to: UInt8.self)
                let consumed = consumeLines(bytes, scanFrom: 0, into: &sink)
                if consumed < bytes.count {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[consumed...]))
                }
            }
            scannedUpTo = buffer.count
            return
        }

        if !atStreamStart, let take = chunk.withUnsafeBytes(Self.lengthThroughFirstLineEnd), take < chunk.count {
            // A line is pending, cut off by the last chunk: only the start of this one is needed to
            // finish it, and the rest is read in place rather than copied behind it.
            pushBytes(chunk.prefix(take), into: &sink)
            pushBytes(chunk.dropFirst(take), into: &sink)
            return
        }
        compactIfWorthwhile()
        buffer.append(contentsOf: chunk)
        if atStreamStart && !skipByteOrderMark() {
            return
        }
        let all = buffer
        all.withUnsafeBufferPointer { bytes in
            let pending = UnsafeBufferPointer(rebasing: bytes[readOffset...])
            readOffset += consumeLines(pending, scanFrom: scannedUpTo - readOffset, into: &sink)
        }
        scannedUpTo = buffer.count
    }

    /// Ends the stream: delivers the last event even without its closing blank line, then resets.
    package mutating func finish() -> [SSEMessage] {
        var list = MessageList()
        finish(into: &list)
        return list.messages
    }

    /// Ends the stream into `sink`: the last event even without its closing blank line; then resets.
    package mutating func finish<Sink: SSEEventSink>(into sink: inout Sink) {
        let all = buffer
        all.withUnsafeBufferPointer { bytes in
            // A last line without its line end still counts as a line.
            let rest = UnsafeBufferPointer(rebasing: bytes[min(readOffset, bytes.count)...])
            if !rest.isEmpty {
                processLine(rest, 0..<rest.count, into: &sink)
            }
            dispatch(rest, into: &sink)
        }
        self = SSEParser()
    }

    // MARK: - Lines

    /// Handles every complete line in `bytes` and returns how many bytes that consumed.
    ///
    /// - Parameter scanFrom: bytes before this offset are known to contain no CR or LF.
    private mutating func consumeLines<Sink: SSEEventSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, scanFrom: Int, into sink: inout Sink
    ) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        defer { keepInPlace(bytes) }
        let count = bytes.count
        var lineStart = 0
        var scan = max(scanFrom, 0)
        if skipLeadingLF {
            skipLeadingLF = false
            if base[0] == Self.lf {
                lineStart = 1
                scan = max(scan, 1)
            }
        }
        while scan < count {
            let from = UnsafeRawPointer(base + scan)
            let remaining = count - scan
            let lfPointer = memchr(from, Int32(Self.lf), remaining)
            let crSearchLength = lfPointer.map { from.distance(to: UnsafeRawPointer($0)) } ?? remaining
            let lineEnd: Int
            let nextStart: Int
            if let crPointer = memchr(from, Int32(Self.cr), crSearchLength) {
                lineEnd = scan + from.distance(to: UnsafeRawPointer(crPointer))
                if lineEnd + 1 < count {
                    nextStart = base[lineEnd + 1] == Self.lf ? lineEnd + 2 : lineEnd + 1
                } else {
                    nextStart = lineEnd + 1
                    skipLeadingLF = true
                }
            } else if lfPointer != nil {
                lineEnd = scan + crSearchLength
                nextStart = lineEnd + 1
            } else {
                break
            }
            processLine(bytes, lineStart..<lineEnd, into: &sink)
            lineStart = nextStart
            scan = nextStart
        }
        return lineStart
    }

    /// Applies one complete line (without its line end), `lineRange` of `bytes`, to the event
    /// being built.
    private mutating func processLine<Sink: SSEEventSink>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ lineRange: Range<Int>, into sink: inout Sink
    ) {
        guard let start = bytes.baseAddress, !lineRange.isEmpty else {
            dispatch(bytes, into: &sink)
            return
        }
        let base = start + lineRange.lowerBound
        let count = lineRange.count
        if base[0] == Self.colon { return }

        let fieldLength: Int
        var valueStart: Int
        if let colonPointer = memchr(base, Int32(Self.colon), count) {
            fieldLength = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(colonPointer))
            valueStart = fieldLength + 1
            if valueStart < count && base[valueStart] == Self.space {
                valueStart += 1
            }
        } else {
            fieldLength = count
            valueStart = count
        }
        let field = UnsafeBufferPointer(start: base, count: fieldLength)
        let value = UnsafeBufferPointer(start: base + valueStart, count: count - valueStart)

        if Self.equals(field, Self.dataField) {
            if !hasData {
                // The usual case, one data line: left where it is until the event is dispatched.
                dataInPlace = (lineRange.lowerBound + valueStart)..<lineRange.upperBound
                hasData = true
                return
            }
            keepInPlace(bytes)
            dataBytes.append(Self.lf)
            dataBytes.append(contentsOf: value)
        } else if Self.equals(field, Self.eventField) {
            // Left where it is too: only a message made of the event needs its name.
            eventInPlace = (lineRange.lowerBound + valueStart)..<lineRange.upperBound
            if !eventBytes.isEmpty { eventBytes.removeAll(keepingCapacity: true) }
        } else if Self.equals(field, Self.idField) {
            // WHATWG ignores an id containing NUL; an empty id resets the last event ID.
            if !value.contains(0) {
                lastEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
            }
        }
        // `retry` and unknown fields are ignored: this client never reconnects on its own.
    }

    /// Copies a data line or event name still lying in `bytes` into `dataBytes` or `eventBytes`,
    /// before `bytes` goes away.
    private mutating func keepInPlace(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let range = dataInPlace {
            dataBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
            dataInPlace = nil
        }
        if let range = eventInPlace {
            eventBytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range]))
            eventInPlace = nil
        }
    }

    /// Delivers the event being built, if it has data, and starts a new one.
    private mutating func dispatch<Sink: SSEEventSink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        defer {
            dataInPlace = nil
            eventInPlace = nil
            if !dataBytes.isEmpty { dataBytes.removeAll(keepingCapacity: true) }
            if !eventBytes.isEmpty { eventBytes.removeAll(keepingCapacity: true) }
            hasData = false
        }
        guard hasData else { return }
        if let range = dataInPlace {
            dataInPlace = nil
            deliver(UnsafeBufferPointer(rebasing: bytes[range]), in: bytes, into: &sink)
        } else {
            let data = dataBytes
            data.withUnsafeBufferPointer { deliver($0, in: bytes, into: &sink) }
        }
    }

    /// Offers one event's data to the sink as bytes, then as a message if it asks for one.
    private mutating func deliver<Sink: SSEEventSink>(
        _ data: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink
    ) {
        if sink.take(rawData: data) { return }
        keepInPlace(bytes)
        sink.take(SSEMessage(event: eventName(), data: String(decoding: data, as: UTF8.self), id: lastEventID))
    }

    private mutating func eventName() -> String? {
        guard !eventBytes.isEmpty else { return nil }
        if eventBytes != cachedEventBytes || cachedEventName == nil {
            cachedEventBytes = eventBytes
            cachedEventName = String(decoding: eventBytes, as: UTF8.self)
        }
        return cachedEventName
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard let base = bytes.baseAddress else { return name.utf8CodeUnitCount == 0 }
        return bytes.count == name.utf8CodeUnitCount && memcmp(base, name.utf8Start, bytes.count) == 0
    }

    /// The length of `bytes` up to and including its first line end (CR, LF or CRLF), and the
    /// blank line right after it if there is one, so an event that ends there is dispatched
    /// while its data still lies where it was read; nil when `bytes` has no line end.
    private static func lengthThroughFirstLineEnd(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let lf = memchr(base, Int32(Self.lf), bytes.count).map { base.distance(to: UnsafeRawPointer($0)) }
        let cr = memchr(base, Int32(Self.cr), lf ?? bytes.count).map { base.distance(to: UnsafeRawPointer($0)) }
        guard let end = cr ?? lf else { return nil }
        let length = lineEndLength(bytes, at: end)
        return end + length + lineEndLength(bytes, at: end + length)
    }

    /// How many bytes the line end at `index` takes (2 for CRLF), or 0 when none is there.
    private static func lineEndLength(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Int {
        guard index < bytes.count else { return 0 }
        if bytes[index] == Self.lf { return 1 }
        guard bytes[index] == Self.cr else { return 0 }
        return index + 1 < bytes.count && bytes[index + 1] == Self.lf ? 2 : 1
    }

    // MARK: - Buffer

    /// Drops spent bytes once they outweigh the pending ones, keeping appends amortised O(1).
    private mutating func compactIfWorthwhile() {
        guard readOffset > 0 else { return }
        if readOffset == buffer.count {
            buffer.removeAll(keepingCapacity: true)
        } else if readOffset >= buffer.count - readOffset {
            buffer.removeSubrange(0..<readOffset)
        } else {
            return
        }
        scannedUpTo -= readOffset
        readOffset = 0
    }

    /// Skips a leading byte order mark; false while too few bytes have arrived to tell.
    private mutating func skipByteOrderMark() -> Bool {
        let pending = buffer.count - readOffset
        let checked = min(pending, Self.byteOrderMark.count)
        let isPrefix = buffer[readOffset..<(readOffset + checked)].elementsEqual(Self.byteOrderMark.prefix(checked))
        if isPrefix && checked < Self.byteOrderMark.count {
            return false
        }
        atStreamStart = false
        if isPrefix {
            readOffset += Self.byteOrderMark.count
            scannedUpTo = readOffset
        }
        return true
    }

    private static let lf: UInt8 = 0x0A
    private static let cr: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20
    private static let dataField: StaticString = "data"
    private static let eventField: StaticString = "event"
    private static let idField: StaticString = "id"
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}
