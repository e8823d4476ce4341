import Testing

@testable import LessonPlanCore
@testable import LessonPlanModel

/// The head parser with the lines libcurl hands over, including the answers it skips past.
@Suite struct ResponseHeadParserTests {
    private func parse(_ lines: [String], followsRedirects: Bool = true) -> [HTTPResponseHead] {
        var parser = ResponseHeadParser(followsRedirects: followsRedirects)
        return lines.compactMap { parser.push($0) }
    }

    @Test func statusAndFieldsWithLowerCasedNames() {
        let heads = parse(["HTTP/1.1 429 Too Many Requests\r\n", "Retry-After: 1\r\n", "Content-Type:  application/json \r\n", "\r\n"])
        #expect(heads == [HTTPResponseHead(status: 429, headers: ["retry-after": "1", "content-type": "application/json"])])
    }

    @Test func interimAnswersAreNotTheResponse() {
        let heads = parse(["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "X-Request-Id: b\r\n", "\r\n"])
        #expect(heads == [HTTPResponseHead(status: 200, headers: ["x-request-id": "b"])])
    }

    @Test func followedRedirectsAreNotTheResponseButOthersAre() {
        let redirect = ["HTTP/1.1 307 Temporary Redirect\r\n", "Location: https://b.example/v1\r\n", "X-Old: 1\r\n", "\r\n"]
        let final = ["HTTP/2 200 \r\n", "content-type: text/event-stream\r\n", "\r\n"]
        #expect(parse(redirect + final) == [HTTPResponseHead(status: 200, headers: ["content-type": "text/event-stream"])])
        #expect(parse(redirect, followsRedirects: false).map(\.status) == [307])
        // A 3xx without Location is not followed by libcurl either.
        #expect(parse(["HTTP/1.1 302 Found\r\n", "\r\n"]).map(\.status) == [302])
    }

    @Test func repeatedFieldsCombineAndFoldedLinesContinue() {
        let heads = parse(["HTTP/1.1 200 OK\r\n", "Vary: Origin\r\n", "vary: Accept\r\n", "X-Long: one\r\n", "\t two\r\n", "\r\n"])
        #expect(heads.first?.header("Vary") == "Origin, Accept")
        #expect(heads.first?.header("x-long") == "one two")
    }
}
