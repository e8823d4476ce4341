import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One dispatched server-sent event: what a blank line closes, whatever the network chunks were.
public struct SSEMessage: Equatable, Sendable {
    /// The `event:` name; nil when the stream gave none (the WHATWG default, "message").
    public var event: String?
    /// All `data:` lines of the event, joined with "\n".
    public var data: String
    /// The last event ID in effect, as WHATWG keeps it across events; nil when never set or reset.
    public var id: String?

    public init(event: String? = nil, data: String, id: String? = nil) {
        self.event = event
        self.data = data
        self.id = id
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
/// line, because it sits on the hot path of every streamed token.
public struct SSEParser: Sendable {
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
    private var eventBytes: [UInt8] = []
    private var lastEventID: String?

    /// The previous event name, reused so each event of the same type does not allocate a string.
    private var cachedEventBytes: [UInt8] = []
    private var cachedEventName: String?

    public init() {}

    /// Feeds the next chunk of the body and returns the events it completes, in order.
    public mutating func push(_ chunk: Data) -> [SSEMessage] {
        var messages: [SSEMessage] = []
        guard !chunk.isEmpty else { return messages }

        if readOffset == buffer.count && !atStreamStart {
            // Nothing pending: read the chunk in place and keep only its unfinished last line.
            buffer.removeAll(keepingCapacity: true)
            readOffset = 0
            chunk.withUnsafeBytes { raw in
                let bytes = raw.assumingMemoryBound(to: UInt8.self)
                let consumed = consumeLines(bytes, scanFrom: 0, into: &messages)
                if consumed < bytes.count {
                    buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[consumed...]))
                }
            }
            scannedUpTo = buffer.count
            return messages
        }

        compactIfWorthwhile()
        buffer.append(contentsOf: chunk)
        if atStreamStart && !skipByteOrderMark() {
            return messages
        }
        let all = buffer
        all.withUnsafeBufferPointer { bytes in
            let pending = UnsafeBufferPointer(rebasing: bytes[readOffset...])
            readOffset += consumeLines(pending, scanFrom: scannedUpTo - readOffset, into: &messages)
        }
        scannedUpTo = buffer.count
        return messages
    }

    /// Ends the stream: delivers the last event even without its closing blank line, then resets.
    public mutating func finish() -> [SSEMessage] {
        var messages: [SSEMessage] = []
        if readOffset < buffer.count {
            // A last line without its line end still counts as a line.
            let all = buffer
            all.withUnsafeBufferPointer { bytes in
                processLine(UnsafeBufferPointer(rebasing: bytes[readOffset...]), into: &messages)
            }
        }
        dispatch(into: &messages)
        self = SSEParser()
        return messages
    }

    // MARK: - Lines

    /// Handles every complete line in `bytes` and returns how many bytes that consumed.
    ///
    /// - Parameter scanFrom: bytes before this offset are known to contain no CR or LF.
    private mutating func consumeLines(
        _ bytes: UnsafeBufferPointer<UInt8>, scanFrom: Int, into messages: inout [SSEMessage]
    ) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
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
            processLine(UnsafeBufferPointer(start: base + lineStart, count: lineEnd - lineStart), into: &messages)
            lineStart = nextStart
            scan = nextStart
        }
        return lineStart
    }

    /// Applies one complete line (without its line end) to the event being built.
    private mutating func processLine(_ line: UnsafeBufferPointer<UInt8>, into messages: inout [SSEMessage]) {
        guard let base = line.baseAddress, !line.isEmpty else {
            dispatch(into: &messages)
            return
        }
        if base[0] == Self.colon { return }

        let fieldLength: Int
        var valueStart: Int
        if let colonPointer = memchr(base, Int32(Self.colon), line.count) {
            fieldLength = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(colonPointer))
            valueStart = fieldLength + 1
            if valueStart < line.count && base[valueStart] == Self.space {
                valueStart += 1
            }
        } else {
            fieldLength = line.count
            valueStart = line.count
        }
        let field = UnsafeBufferPointer(start: base, count: fieldLength)
        let value = UnsafeBufferPointer(start: base + valueStart, count: line.count - valueStart)

        if Self.equals(field, Self.dataField) {
            if hasData { dataBytes.append(Self.lf) }
            dataBytes.append(contentsOf: value)
            hasData = true
        } else if Self.equals(field, Self.eventField) {
            eventBytes.removeAll(keepingCapacity: true)
            eventBytes.append(contentsOf: value)
        } else if Self.equals(field, Self.idField) {
            // WHATWG ignores an id containing NUL; an empty id resets the last event ID.
            if !value.contains(0) {
                lastEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
            }
        }
        // `retry` and unknown fields are ignored: this client never reconnects on its own.
    }

    /// Delivers the event being built, if it has data, and starts a new one.
    private mutating func dispatch(into messages: inout [SSEMessage]) {
        defer {
            dataBytes.removeAll(keepingCapacity: true)
            eventBytes.removeAll(keepingCapacity: true)
            hasData = false
        }
        guard hasData else { return }
        let data = String(decoding: dataBytes, as: UTF8.self)
        messages.append(SSEMessage(event: eventName(), data: data, id: lastEventID))
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
