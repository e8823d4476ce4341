import Foundation
import LessonPlanCore
import LessonPlanModel
import Testing

/// The retry rules of the official OpenAI SDKs, checked as plain values: no network, no sleeping.
@Suite struct RetryPolicyTests {
    let policy = RetryPolicy()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func http(_ status: Int, code: String? = nil) -> ModelError {
        .http(status: status, message: nil, code: code, model: "gpt-5.2", keySuffix: nil)
    }

    func decide(_ failure: RequestFailure, retriesSoFar: Int = 0, random: Double = 0) -> RetryDecision {
        policy.decide(after: failure, retriesSoFar: retriesSoFar, now: now, randomFraction: random)
    }

    @Test(arguments: [408, 409, 429, 500, 502, 503, 504, 599])
    func retriesStatusesThatMayPassByThemselves(status: Int) {
        #expect(policy.shouldRetry(RequestFailure(http(status))))
    }

    @Test(arguments: [400, 401, 403, 404, 422])
    func doesNotRetryRequestsThatWouldFailAgain(status: Int) {
        #expect(!policy.shouldRetry(RequestFailure(http(status))))
    }

    @Test func aSpentQuotaIsNotRetried() {
        #expect(!policy.shouldRetry(RequestFailure(http(429, code: "insufficient_quota"))))
        #expect(policy.shouldRetry(RequestFailure(http(429, code: "rate_limit_exceeded"))))
        #expect(decide(RequestFailure(http(429, code: "insufficient_quota"))) == .giveUp)
    }

    @Test func connectionFailuresAreRetriedButNotTLS() {
        for error: TransportError in [.hostNotFound(host: "h"), .cannotConnect(host: "h"), .timedOut, .connectionLost, .other("x")] {
            #expect(policy.shouldRetry(RequestFailure(.transport(error, host: "h"))), "\(error)")
        }
        #expect(!policy.shouldRetry(RequestFailure(.transport(.tls(host: "h"), host: "h"))))
        // The offline model may still be loading.
        #expect(policy.shouldRetry(RequestFailure(.localServerDown(address: "127.0.0.1:8012"))))
    }

    @Test func aProxyErrorPageIsRetriedLikeItsStatus() {
        #expect(policy.shouldRetry(RequestFailure(.notAStream(status: 502, firstLine: "502 Bad Gateway", host: "h"))))
        #expect(!policy.shouldRetry(RequestFailure(.notAStream(status: 200, firstLine: "<html>", host: "h"))))
        #expect(!policy.shouldRetry(RequestFailure(.notFound(url: "u", message: nil, api: .responses))))
    }

    @Test func whatTheModelSaidIsNeverRetried() {
        let said: [ModelError] = [
            .noKey, .incomplete(reason: "max_output_tokens", maxOutputTokens: 10), .failed(message: nil, code: nil),
            .streamError(message: nil, code: nil), .refusal("no"), .emptyAnswer, .deadline(seconds: 5),
        ]
        for error in said {
            #expect(!policy.shouldRetry(RequestFailure(error)), "\(error)")
        }
        // A stream that broke off before any text showed nothing, so asking again is safe.
        #expect(policy.shouldRetry(RequestFailure(.cutOff)))
    }

    @Test func theServersXShouldRetryHeaderWins() {
        #expect(policy.shouldRetry(RequestFailure(http(400), headers: ["X-Should-Retry": "true"])))
        #expect(!policy.shouldRetry(RequestFailure(http(503), headers: ["x-should-retry": "false"])))
    }

    @Test func retriesStopAtTheLimit() {
        let failure = RequestFailure(http(500))
        #expect(decide(failure, retriesSoFar: 0) != .giveUp)
        #expect(decide(failure, retriesSoFar: 1) != .giveUp)
        #expect(decide(failure, retriesSoFar: 2) == .giveUp)
        let none = RetryPolicy(maxRetries: 0)
        #expect(none.decide(after: failure, retriesSoFar: 0, now: now, randomFraction: 0) == .giveUp)
        #expect(RetryPolicy(maxRetries: -3).maxRetries == 0)
    }

    @Test func backoffDoublesFromHalfASecondUpToEight() {
        #expect(policy.backoff(retriesSoFar: 0, randomFraction: 0) == 0.5)
        #expect(policy.backoff(retriesSoFar: 1, randomFraction: 0) == 1)
        #expect(policy.backoff(retriesSoFar: 2, randomFraction: 0) == 2)
        #expect(policy.backoff(retriesSoFar: 3, randomFraction: 0) == 4)
        #expect(policy.backoff(retriesSoFar: 4, randomFraction: 0) == 8)
        #expect(policy.backoff(retriesSoFar: 5, randomFraction: 0) == 8)
        #expect(policy.backoff(retriesSoFar: 1000, randomFraction: 0) == 8)
    }

    @Test func jitterTakesOffUpToAQuarter() {
        #expect(policy.backoff(retriesSoFar: 0, randomFraction: 0.5) == 0.4375)
        #expect(policy.backoff(retriesSoFar: 4, randomFraction: 0.999_999) > 6)
        #expect(policy.backoff(retriesSoFar: 4, randomFraction: 1) == 6)
        // A broken random source cannot push the wait outside the range.
        #expect(policy.backoff(retriesSoFar: 0, randomFraction: 7) == 0.375)
        #expect(policy.backoff(retriesSoFar: 0, randomFraction: -1) == 0.5)
    }

    @Test func retryAfterMillisecondsComesFirst() {
        #expect(policy.serverDelay(["retry-after-ms": "10"], now: now) == 0.01)
        #expect(policy.serverDelay(["retry-after-ms": "1500", "retry-after": "9"], now: now) == 1.5)
    }

    @Test func retryAfterInSecondsOrAsAnHTTPDate() {
        #expect(policy.serverDelay(["retry-after": "2"], now: now) == 2)
        #expect(policy.serverDelay(["retry-after": " 0.5 "], now: now) == 0.5)
        let inSevenSeconds = "Fri, 15 Jan 2027 08:00:07 GMT"
        let then = now  // Fri, 15 Jan 2027 08:00:00 GMT
        #expect(policy.serverDelay(["retry-after": inSevenSeconds], now: then) == 7)
        #expect(policy.serverDelay(["retry-after": "Friday, 15-Jan-27 08:00:07 GMT"], now: then) == 7)
        #expect(policy.serverDelay(["retry-after": "Fri Jan 15 08:00:07 2027"], now: then) == 7)
    }

    @Test func serverWaitsOutsideZeroToSixtySecondsFallBackToTheBackoff() {
        for value in ["0", "-1", "61", "3600", "soon", "nan", "Fri, 15 Jan 2027 07:59:00 GMT"] {
            #expect(policy.serverDelay(["retry-after": value], now: now) == nil, "\(value)")
        }
        #expect(policy.serverDelay(["retry-after-ms": "60001"], now: now) == nil)
        #expect(policy.serverDelay(["retry-after": "60"], now: now) == 60)
        let decision = decide(RequestFailure(http(429), headers: ["retry-after": "120"]), random: 0)
        #expect(decision == .retry(RetryWait(reason: "rate limited", seconds: 0.5, retry: 1, maxRetries: 2)))
    }

    @Test func theDecisionCarriesTheWaitAndItsNumber() {
        let failure = RequestFailure(http(429), headers: ["Retry-After": "2"])
        #expect(decide(failure) == .retry(RetryWait(reason: "rate limited", seconds: 2, retry: 1, maxRetries: 2)))
        #expect(
            decide(RequestFailure(http(503)), retriesSoFar: 1, random: 0.5)
                == .retry(RetryWait(reason: "server error 503", seconds: 0.875, retry: 2, maxRetries: 2)))
        #expect(
            decide(RequestFailure(.transport(.timedOut, host: "h")))
                == .retry(RetryWait(reason: "no answer in time", seconds: 0.5, retry: 1, maxRetries: 2)))
    }

    @Test func theWaitReadsAsOneLine() {
        #expect(
            RetryWait(reason: "rate limited", seconds: 2, retry: 1, maxRetries: 2).description
                == "rate limited — retrying in 2 s (1/2)")
        #expect(RetryWait(reason: "x", seconds: 0.01, retry: 1, maxRetries: 2).duration == "10 ms")
        #expect(RetryWait(reason: "x", seconds: 0.4375, retry: 1, maxRetries: 2).duration == "0.4 s")
        #expect(RetryWait(reason: "x", seconds: 1.5, retry: 1, maxRetries: 2).duration == "1.5 s")
        #expect(RetryWait(reason: "x", seconds: 7.96, retry: 1, maxRetries: 2).duration == "8 s")
        #expect(RetryWait(reason: "x", seconds: 42.4, retry: 1, maxRetries: 2).duration == "42 s")
    }
}
