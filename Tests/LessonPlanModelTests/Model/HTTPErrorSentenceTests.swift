import Foundation
import LessonPlanCore
import LessonPlanModel
import Testing

/// The sentence each HTTP failure gets: a 413 and a 429 both read the body for the model's token limit, and only
/// that limit gets the too-large sentence about the organization's limit.
@Suite struct HTTPErrorSentenceTests {
    func sentence(_ status: Int, message: String? = nil, code: String? = nil) -> String {
        ModelError.http(status: status, message: message, code: code, model: "gpt-5.2", keySuffix: nil).errorDescription ?? ""
    }

    @Test func a413OverTheTokenLimitAndA429OverItGetTheTooLargeSentence() {
        for status in [413, 429] {
            #expect(sentence(status, code: "request_too_large").hasPrefix("The request is larger than the model's limit allows"), "\(status)")
            #expect(sentence(status, message: "Request too large for gpt-5.2 in tokens per min").contains("ask for a higher limit"), "\(status)")
        }
    }

    @Test func a413WithoutTheTokenLimitIsAServerThatTakesNoBodyThatBig() {
        let said = sentence(413, message: "Request Entity Too Large")
        #expect(said.hasPrefix("The server refused the request as too large (413: Request Entity Too Large)"), "\(said)")
        #expect(!said.contains("higher limit for the organization"), "\(said)")
        #expect(sentence(413).hasPrefix("The server refused the request as too large (413)"))
    }

    @Test func a429WithoutEitherMarkIsRateLimiting() {
        #expect(sentence(429, code: "rate_limit_exceeded").hasPrefix("The server is rate limiting requests"))
        #expect(sentence(429, code: "insufficient_quota").hasPrefix("The API key's quota is used up"))
    }
}
