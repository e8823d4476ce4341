import Foundation
import Testing

@testable import LessonPlanCore
@testable import LessonPlanModel

/// The redirect rules ``CurlTransport`` follows itself: at most five, https only to https,
/// credentials only to the origin they were given for.
@Suite struct RedirectRulesTests {
    let original = HTTPRequest(
        url: Self.url("http://127.0.0.1:8080/v1/responses"),
        headers: ["Authorization": "Bearer k", "X-Proxy-Token": "t", "Content-Type": "application/json", "Accept": "text/event-stream"],
        body: Data("{}".utf8), originOnlyHeaders: ["Authorization", "x-proxy-token"])

    static func url(_ text: String) -> URL { URL(string: text) ?? URL(fileURLWithPath: "/") }

    func follow(_ status: Int, _ location: String?, from request: HTTPRequest? = nil) throws -> HTTPRequest? {
        try CurlTransport.redirect(
            from: request ?? original, original: original,
            head: HTTPResponseHead(status: status, headers: location.map { ["Location": $0] } ?? [:]))
    }

    @Test func anotherOriginGetsNoCredentials() throws {
        for target in [
            "http://localhost:8080/v1/responses", "http://127.0.0.1:8081/v1/responses", "https://127.0.0.1:8080/v1/responses",
            "http://example.invalid/v1/responses",
        ] {
            let next = try #require(try follow(307, target))
            #expect(next.url.absoluteString == target)
            #expect(Set(next.headers.keys) == ["Content-Type", "Accept"], "\(target)")
            #expect(next.body == original.body && next.method == "POST")
        }
    }

    @Test func theSameOriginKeepsThem() throws {
        let next = try #require(try follow(308, "/v2/responses"))
        #expect(next.url.absoluteString == "http://127.0.0.1:8080/v2/responses")
        #expect(next.headers == original.headers)
        // Back to the origin after a hop elsewhere: the credentials are sent there again.
        let away = try #require(try follow(307, "http://other.invalid/x"))
        let back = try #require(try follow(307, "http://127.0.0.1:8080/v1/responses", from: away))
        #expect(back.headers == original.headers)
    }

    @Test func seeOtherAndPostRedirectsBecomeGetWithoutBody() throws {
        for status in [301, 302, 303] {
            let next = try #require(try follow(status, "/elsewhere"))
            #expect(next.method == "GET" && next.body.isEmpty && next.headers["Content-Type"] == nil)
        }
    }

    @Test func notARedirectOrNoLocationIsTheAnswer() throws {
        #expect(try follow(200, "/x") == nil)
        #expect(try follow(307, nil) == nil)
        #expect(try follow(304, "/x") == nil)
    }

    @Test func httpsNeverGoesToPlainHTTPNorAnywhereButTheWeb() throws {
        let secure = HTTPRequest(url: Self.url("https://api.example.com/v1/responses"), headers: [:])
        #expect(throws: TransportError.self) {
            try CurlTransport.redirect(
                from: secure, original: secure,
                head: HTTPResponseHead(status: 307, headers: ["Location": "http://api.example.com/v1/responses"]))
        }
        #expect(throws: TransportError.self) { try follow(307, "file:///etc/passwd") }
        #expect(throws: TransportError.self) { try follow(307, "ftp://127.0.0.1/x") }
    }
}
