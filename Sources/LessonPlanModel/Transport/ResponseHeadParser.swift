import Foundation

/// Builds a response head from the header lines libcurl hands over one at a time.
///
/// libcurl passes on every response it reads, not only the final one: `100 Continue` and other
/// interim answers, and each redirect it follows. A status line starts a new head; only a
/// complete head that is neither interim nor about to be followed is the response.
struct ResponseHeadParser {
    /// Whether 3xx answers with a `Location` are followed (and so are not the response).
    let followsRedirects: Bool
    private(set) var status = 0
    private var fields: [(name: String, value: String)] = []

    init(followsRedirects: Bool) {
        self.followsRedirects = followsRedirects
    }

    /// Takes one line, with or without its line ending.
    /// - Returns: the head once its final blank line arrives, if it is the response.
    mutating func push(_ rawLine: String) -> HTTPResponseHead? {
        var line = Substring(rawLine)
        // "\r\n" is one Character in Swift; isNewline covers it, "\n" and "\r".
        while let last = line.last, last.isNewline {
            line = line.dropLast()
        }
        if line.hasPrefix("HTTP/") {
            // "HTTP/1.1 200 OK", "HTTP/2 200": the code is the second word.
            let words = line.split(separator: " ", maxSplits: 2)
            status = words.count > 1 ? Int(words[1]) ?? 0 : 0
            fields = []
            return nil
        }
        if line.isEmpty {
            return isFinal ? head : nil
        }
        if let first = line.first, first == " " || first == "\t", let last = fields.indices.last {
            // An obsolete folded continuation of the previous field.
            fields[last].value += " " + line.trimmingCharacters(in: .whitespaces)
            return nil
        }
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        fields.append((name, value))
        return nil
    }

    /// The head collected so far, whether or not it is complete.
    var head: HTTPResponseHead {
        var headers: [String: String] = [:]
        for (name, value) in fields {
            let key = name.lowercased()
            // Repeated fields combine into one list, as HTTP defines and URLSession did.
            headers[key] = headers[key].map { "\($0), \(value)" } ?? value
        }
        return HTTPResponseHead(status: status, headers: headers)
    }

    private var isFinal: Bool {
        if (100..<200).contains(status) { return false }
        let redirect = [301, 302, 303, 307, 308].contains(status)
        let hasLocation = fields.contains { $0.name.lowercased() == "location" }
        return !(followsRedirects && redirect && hasLocation)
    }
}
