import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Hides the API key and `--header` values wherever a server says them back, because a proxy's
/// error page or a model told to repeat its request can echo a credential onto the screen and
/// into the transcript.
///
/// The one masking function of the library: every piece of server text enters the library's
/// results through ``mask(_:)`` (errors, event messages) or a ``Stream`` (answer text).
/// Matching is exact, whatever the secret's prefix; values shorter than
/// ``shortestSecret`` are not masked, since hiding every "42" in a lesson would hide nothing.
package struct SecretMask: Sendable, Equatable {
    /// What stands in for a secret.
    package static let replacement = "[hidden]"
    /// Header values shorter than this are not treated as secrets.
    package static let shortestSecret = 8

    /// The secrets' UTF-8, longest first so a secret that contains another is hidden whole.
    let secrets: [[UInt8]]
    /// What stands in for each secret: ``replacement``, with the context of one given in context kept around it.
    let replacements: [[UInt8]]

    /// Masks exactly these strings (short or empty ones are ignored), and every value of `inContext` with the text
    /// around it, however short: such a value carries its own context (`api-key=` before `ab12`, as a URL writes
    /// it), so hiding it hides no "42" of a lesson; the context stays (`api-key=[hidden]`).
    package init(secrets: [String], inContext: [(before: String, value: String, after: String)] = []) {
        var replacing: [[UInt8]: [UInt8]] = [:]
        for secret in secrets where secret.count >= Self.shortestSecret {
            replacing[Array(secret.utf8)] = Array(Self.replacement.utf8)
        }
        for (before, value, after) in inContext where !value.isEmpty {
            let whole = Array((before + value + after).utf8)
            if replacing[whole] == nil { replacing[whole] = Array((before + Self.replacement + after).utf8) }
        }
        let sorted = replacing.keys.sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
        self.secrets = sorted
        replacements = sorted.map { replacing[$0] ?? Array(Self.replacement.utf8) }
    }

    package static func == (lhs: SecretMask, rhs: SecretMask) -> Bool {
        lhs.secrets == rhs.secrets && lhs.replacements == rhs.replacements
    }

    /// The key, the token, every `--header` value and every value in the base URL's or endpoint's
    /// query and user part (`…/v1?api-key=…`, which some gateways use, echoed back by a 404); for an
    /// `Authorization`-style value (`Bearer xyz`) also the credential alone, which a server may quote
    /// without its scheme.
    package init(settings: ModelSettings) {
        var secrets: [String] = []
        var inContext: [(before: String, value: String, after: String)] = []
        if let key = settings.apiKey { secrets.append(key) }
        if let token = settings.token { secrets.append(token) }
        for url in [settings.baseURL, settings.endpoint].compactMap({ $0 }) {
            secrets.append(contentsOf: Self.urlSecrets(url))
            inContext.append(contentsOf: Self.urlSecretsInContext(url))
        }
        for value in settings.extraHeaders.values {
            secrets.append(value)
            let words = value.split(separator: " ", omittingEmptySubsequences: true)
            if words.count == 2, ["bearer", "basic", "token", "apikey", "key"].contains(words[0].lowercased()) {
                secrets.append(String(words[1]))
            }
        }
        self.init(secrets: secrets, inContext: inContext)
    }

    /// The query values and the user part of `url` as the URL writes them around a value (`name=value`,
    /// `user:password@`, `user@`), encoded and decoded: a value shorter than ``shortestSecret`` is still a
    /// credential there, and is hidden with the name or `@` it stands beside.
    static func urlSecretsInContext(_ url: URL) -> [(before: String, value: String, after: String)] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
        var found: [(before: String, value: String, after: String)] = []
        for items in [components.percentEncodedQueryItems ?? [], components.queryItems ?? []] {
            for item in items { if let value = item.value { found.append(("\(item.name)=", value, "")) } }
        }
        for (user, password) in [(components.percentEncodedUser, components.percentEncodedPassword), (components.user, components.password)] {
            guard let user else { continue }
            found.append(("", password.map { "\(user):\($0)" } ?? user, "@"))
            if let password { found.append((":", password, "@")) }
        }
        return found
    }

    /// The query values, user and password of `url`, both as written (percent-encoded, as a server
    /// echoes the URL) and decoded.
    static func urlSecrets(_ url: URL) -> [String] {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
        var found = [components.percentEncodedUser, components.user, components.percentEncodedPassword, components.password]
        for item in components.percentEncodedQueryItems ?? [] { found.append(item.value) }
        for item in components.queryItems ?? [] { found.append(item.value) }
        return found.compactMap { $0 }
    }

    /// A mask that hides nothing.
    package static let none = SecretMask(secrets: [])

    package var isEmpty: Bool { secrets.isEmpty }

    /// `text` with every secret in it replaced.
    package func mask(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        var probe = text
        let any = probe.withUTF8 { utf8 in
            secrets.contains { Self.find($0, in: UnsafeRawBufferPointer(utf8), from: 0) != nil }
        }
        guard any else { return text }
        var bytes = Array(text.utf8)
        guard replaceAll(in: &bytes) else { return text }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces every secret in `bytes`; false when there was none.
    func replaceAll(in bytes: inout [UInt8]) -> Bool {
        var changed = false
        for (secret, replacement) in zip(secrets, replacements) where bytes.count >= secret.count {
            guard let first = Self.find(secret, in: bytes, from: 0) else { continue }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var start = 0
            var next: Int? = first
            while let found = next {
                output.append(contentsOf: bytes[start..<found])
                output.append(contentsOf: replacement)
                start = found + secret.count
                next = Self.find(secret, in: bytes, from: start)
            }
            output.append(contentsOf: bytes[start...])
            bytes = output
            changed = true
        }
        return changed
    }

    /// How many bytes at the end of `bytes` could be the start of a secret, to be held back
    /// until the next piece shows whether they are.
    func heldBack(_ bytes: [UInt8]) -> Int {
        var longest = 0
        for secret in secrets {
            let most = min(secret.count - 1, bytes.count)
            guard most > longest else { continue }
            for length in stride(from: most, to: longest, by: -1) where bytes[bytes.count - length] == secret[0] {
                if bytes[(bytes.count - length)...].elementsEqual(secret[0..<length]) {
                    longest = length
                    break
                }
            }
        }
        return longest
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        haystack.withUnsafeBytes { find(needle, in: $0, from: start) }
    }

    /// Where `needle` first occurs in `haystack` at or after `start`.
    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard !needle.isEmpty, start <= haystack.count - needle.count, let hayBase = haystack.baseAddress else {
            return nil
        }
        return needle.withUnsafeBytes { pin -> Int? in
            guard let pinBase = pin.baseAddress else { return nil }
            let last = haystack.count - pin.count
            var from = start
            // memchr for the first byte, memcmp for the rest (memmem is not in every libc's headers).
            while from <= last, let hit = memchr(hayBase + from, Int32(pin[0]), last - from + 1) {
                let offset = hayBase.distance(to: UnsafeRawPointer(hit))
                if memcmp(hayBase + offset, pinBase, pin.count) == 0 { return offset }
                from = offset + 1
            }
            return nil
        }
    }

    /// Masks text that arrives in pieces: a secret split across two pieces is still caught,
    /// because the end of a piece that could begin a secret waits for the next one.
    package struct Stream: Sendable {
        let mask: SecretMask
        private var pending: [UInt8] = []

        package init(_ mask: SecretMask) {
            self.mask = mask
        }

        /// The part of the text so far (with `piece`) that can be shown now, masked.
        package mutating func push(_ piece: [UInt8]) -> [UInt8] {
            guard !mask.isEmpty else { return piece }
            pending.append(contentsOf: piece)
            _ = mask.replaceAll(in: &pending)
            let keep = mask.heldBack(pending)
            let ready = Array(pending[..<(pending.count - keep)])
            pending.removeFirst(pending.count - keep)
            return ready
        }

        /// Whatever is still held back: the text has ended (or paused at a point that must not wait).
        package mutating func flush() -> [UInt8] {
            defer { pending.removeAll() }
            return pending
        }
    }
}

extension ModelError {
    /// The same error with every server-written text in it masked.
    package func masked(by mask: SecretMask) -> ModelError {
        guard !mask.isEmpty else { return self }
        switch self {
        case .http(let status, let message, let code, let model, let keySuffix):
            return .http(
                status: status, message: message.map(mask.mask), code: code.map(mask.mask), model: model,
                keySuffix: keySuffix)
        case .notFound(let url, let message, let api):
            return .notFound(url: url, message: message.map(mask.mask), api: api)
        case .notAStream(let status, let firstLine, let host):
            return .notAStream(status: status, firstLine: mask.mask(firstLine), host: host)
        case .transport(.other(let text), let host):
            return .transport(.other(mask.mask(text)), host: host)
        case .failed(let message, let code):
            return .failed(message: message.map(mask.mask), code: code.map(mask.mask))
        case .streamError(let message, let code):
            return .streamError(message: message.map(mask.mask), code: code.map(mask.mask))
        case .refusal(let text):
            return .refusal(mask.mask(text))
        case .incomplete(let reason, let limit):
            return .incomplete(reason: reason.map(mask.mask), maxOutputTokens: limit)
        case .nothingWritten(let limit, let stated):
            return .nothingWritten(maxOutputTokens: limit, stated: stated)
        default:
            return self
        }
    }
}

extension StreamEvent {
    /// The same event with every server-written text in it masked (text deltas go through a
    /// ``SecretMask/Stream`` instead, which sees across deltas).
    func masked(by mask: SecretMask) -> StreamEvent {
        guard !mask.isEmpty else { return self }
        switch self {
        case .textDelta(let text): return .textDelta(mask.mask(text))
        case .refusalDelta(let text): return .refusalDelta(mask.mask(text))
        case .incomplete(let id, let reason, let usage, let limit):
            return .incomplete(responseID: id, reason: reason.map(mask.mask), usage: usage, maxOutputTokens: limit)
        case .failed(let id, let message, let code):
            return .failed(responseID: id, message: message.map(mask.mask), code: code.map(mask.mask))
        case .error(let message, let code): return .error(message: message.map(mask.mask), code: code.map(mask.mask))
        case .unknown(let type): return .unknown(type: mask.mask(type))
        case .malformed(let description): return .malformed(mask.mask(description))
        case .created, .completed: return self
        }
    }
}
