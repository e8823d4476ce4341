import Foundation

/// What `--header` values and the API key must look like before anything is sent, so neither
/// can smuggle a second header or a second request onto the wire.
///
/// Kept apart from the rest of settings resolution on purpose: these are security rules, and
/// they read the same whichever source (flag, environment, file) a value came from.
package enum HeaderRules {
    /// Header names libcurl or HTTP itself owns: replacing one would break the framing of the
    /// request or send it somewhere else.
    package static let reserved: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

    /// The `--header "Name: value"` flags as a name → value table; a name given twice in any
    /// case keeps the last value under the last spelling.
    /// - Throws: ``SettingsError`` for a malformed header, a reserved name, or a value with a
    ///   control character (CR or LF would start a header of the value's choosing).
    package static func parse(_ given: [String]) throws(SettingsError) -> [String: String] {
        var headers: [String: String] = [:]
        for header in given {
            guard let colon = header.firstIndex(of: ":") else {
                throw SettingsError("--header “\(Self.shownName(header))” must look like \"Name: value\".")
            }
            let name = header[..<colon].trimmingCharacters(in: .whitespaces)
            let content = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                throw SettingsError("--header “\(Self.shownName(header))” has no valid header name before the colon.")
            }
            // The value is not quoted back: it is often a token.
            guard !Self.hasControlCharacter(content) else {
                throw SettingsError("--header “\(name)” has a line break or other control character in its value; give the value on one line.")
            }
            guard !reserved.contains(name.lowercased()) else {
                throw SettingsError("--header “\(name)” is reserved: lessonplan sets it itself; leave it out.")
            }
            for existing in headers.keys where existing.lowercased() == name.lowercased() {
                headers[existing] = nil
            }
            headers[name] = content
        }
        return headers
    }

    /// Refuses a key that would break its header line.
    /// - Throws: ``SettingsError`` without quoting the key.
    package static func checkKey(_ key: String) throws(SettingsError) {
        guard !hasControlCharacter(key) else {
            throw SettingsError("OPENAI_API_KEY has a line break or other control character in it; set it to the key alone, on one line.")
        }
    }

    /// `base` with `overrides` laid over it, a name in any case replacing the same name in any
    /// case: `authorization: …` from `--header` replaces the key's `Authorization`, never joins it.
    static func merge(_ base: [String: String], overriddenBy overrides: [String: String]) -> [String: String] {
        var merged = base
        for (name, value) in overrides {
            for existing in merged.keys where existing.lowercased() == name.lowercased() {
                merged[existing] = nil
            }
            merged[name] = value
        }
        return merged
    }

    /// Whether `headers` names `name`, in any case.
    package static func contains(_ headers: [String: String], _ name: String) -> Bool {
        headers.keys.contains { $0.lowercased() == name.lowercased() }
    }

    /// Tab is allowed inside a value, as HTTP allows it; every other C0 control and DEL is not.
    package static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }
    }

    /// The part before the colon, for messages: never the value, which may be a secret.
    private static func shownName(_ header: String) -> String {
        let name = header.split(separator: ":", maxSplits: 1).first.map(String.init) ?? header
        let shown = String(name.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(60))
        return header.contains(":") ? shown + ": …" : shown
    }
}
