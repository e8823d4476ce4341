import Foundation

/// The time, the waiting and the dice a retry needs, injected so tests can check every wait
/// without sleeping.
package protocol RetryClock: Sendable {
    /// Wall-clock time, to turn a `retry-after` given as an HTTP date into seconds.
    func now() -> Date
    /// A number in `0..<1`, for the jitter.
    func randomFraction() -> Double
    /// Waits `seconds`.
    /// - Throws: `CancellationError` at once when the calling task is cancelled (Ctrl-C).
    func sleep(seconds: Double) async throws
}

/// The real clock: `Date()`, the system random generator and `Task.sleep`.
package struct SystemRetryClock: RetryClock {
    package init() {}
    package func now() -> Date { Date() }
    package func randomFraction() -> Double { Double.random(in: 0..<1) }
    package func sleep(seconds: Double) async throws {
        try await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
    }
}

/// A request that did not produce an answer, with what the server said about trying again.
package struct RequestFailure: Error, Sendable, Equatable {
    /// What went wrong, as the teacher will read it if no retry helps.
    package var error: ModelError
    /// The response's header fields (lower-cased names) when the server answered at all.
    package var headers: [String: String]

    package init(_ error: ModelError, headers: [String: String] = [:]) {
        self.error = error
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
    }
}

/// What to do after a failed attempt.
package enum RetryDecision: Sendable, Equatable {
    /// Give up: the failure is the turn's outcome.
    case giveUp
    /// Wait, then send the same request again.
    case retry(RetryWait)
}

/// One wait before a retry, for the line the teacher sees: `rate limited — retrying in 2 s (1/2)`.
package struct RetryWait: Sendable, Equatable {
    /// Why, in a few words: `rate limited`, `server error 503`, `connection failed` …
    package var reason: String
    /// How long to wait.
    package var seconds: Double
    /// Which retry this is, from 1.
    package var retry: Int
    /// How many retries are allowed in all.
    package var maxRetries: Int

    package init(reason: String, seconds: Double, retry: Int, maxRetries: Int) {
        self.reason = reason
        self.seconds = seconds
        self.retry = retry
        self.maxRetries = maxRetries
    }

    /// The wait in words: `2 s`, `1.5 s`, `10 ms`.
    package var duration: String {
        if seconds < 0.1 { return "\(max(0, Int((seconds * 1000).rounded()))) ms" }
        if seconds < 10 {
            let tenths = (seconds * 10).rounded() / 10
            return tenths == tenths.rounded() ? "\(Int(tenths)) s" : String(format: "%.1f s", tenths)
        }
        return "\(Int(seconds.rounded())) s"
    }

    /// The line shown on stderr while waiting.
    package var description: String { "\(reason) — retrying in \(duration) (\(retry)/\(maxRetries))" }
}

/// When and how long to wait before sending a failed request again, the way the official
/// OpenAI SDKs do it.
///
/// Retried: connection failures and timeouts, HTTP 408, 409, 429 and 5xx, and a stream that broke
/// off before any text. Not retried: a 429 whose code is `insufficient_quota` (money, not time, is
/// missing), any other 4xx, TLS failures, and anything the model itself said (refusal, failure,
/// `error` event). A server's `x-should-retry: true|false` overrides the status. The wait is the
/// server's `retry-after-ms`, else its `retry-after` (seconds or an HTTP date) when that is more
/// than 0 and at most 60 s; otherwise 0.5 s × 2^n, capped at 8 s, less up to 25% jitter.
///
/// The caller must never retry once text has been shown: the policy is asked only before that.
package struct RetryPolicy: Sendable, Equatable {
    package static let defaultMaxRetries = 2
    /// The first computed back-off, doubled for each further retry.
    package static let initialDelay = 0.5
    /// The longest computed back-off.
    package static let maxDelay = 8.0
    /// The largest share the jitter takes off a computed back-off.
    package static let maxJitter = 0.25
    /// The longest wait a server may ask for; a longer one falls back to the computed back-off.
    package static let longestServerDelay = 60.0

    /// Retries allowed after the first attempt; 0 disables retrying.
    package var maxRetries: Int

    package init(maxRetries: Int = RetryPolicy.defaultMaxRetries) {
        self.maxRetries = max(0, maxRetries)
    }

    /// Decides after a failed attempt.
    /// - Parameters:
    ///   - failure: the failure and the response headers, if any.
    ///   - retriesSoFar: how many retries were already made for this request (0 after the first attempt).
    ///   - now: the current wall-clock time, for `retry-after` dates.
    ///   - randomFraction: a number in `0..<1` choosing the jitter.
    package func decide(after failure: RequestFailure, retriesSoFar: Int, now: Date, randomFraction: Double)
        -> RetryDecision
    {
        guard retriesSoFar < maxRetries, shouldRetry(failure) else { return .giveUp }
        let seconds =
            serverDelay(failure.headers, now: now)
            ?? backoff(retriesSoFar: retriesSoFar, randomFraction: randomFraction)
        return .retry(
            RetryWait(reason: Self.reason(for: failure.error), seconds: seconds, retry: retriesSoFar + 1, maxRetries: maxRetries))
    }

    /// Whether a fresh attempt could succeed with nothing changed.
    package func shouldRetry(_ failure: RequestFailure) -> Bool {
        switch failure.headers["x-should-retry"]?.lowercased() {
        case "true": return true
        case "false": return false
        default: break
        }
        switch failure.error {
        case .http(let status, let message, let code, _, _):
            // Money, or a request bigger than the per-minute limit, is not fixed by waiting.
            if status == 429 { return !ModelError.isQuota(code: code, message: message) && !ModelError.isTooLarge(code: code, message: message) }
            return Self.isRetryableStatus(status)
        case .notFound:
            return false
        case .notAStream(let status, _, _):
            // An HTML 502 from a proxy is as worth retrying as a JSON one.
            return Self.isRetryableStatus(status) || status == 429
        case .transport(let error, _):
            switch error {
            case .hostNotFound, .cannotConnect, .timedOut, .connectionLost, .other: return true
            case .tls, .headersTooLarge: return false
            }
        case .cutOff:
            // The stream ended before any text: nothing was shown, so asking again is safe.
            return true
        case .localServerDown(_, let died):
            // It may still be loading its model; one that died at start will not come back by itself.
            return died == nil
        case .noKey, .incomplete, .nothingWritten, .failed, .streamError, .refusal, .emptyAnswer, .deadline, .answerTooLong, .lineTooLong,
            .proxyRefused, .incompleteThroughProxy:
            return false
        }
    }

    /// 408, 409 and every 5xx.
    static func isRetryableStatus(_ status: Int) -> Bool {
        status == 408 || status == 409 || (500...599).contains(status)
    }

    /// The wait the server asked for, when it is more than 0 and at most 60 s.
    package func serverDelay(_ headers: [String: String], now: Date) -> Double? {
        var seconds: Double?
        if let text = headers["retry-after-ms"], let milliseconds = Double(text.trimmingCharacters(in: .whitespaces)),
            milliseconds.isFinite
        {
            seconds = milliseconds / 1000
        } else if let text = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) {
            if let value = Double(text), value.isFinite {
                seconds = value
            } else if let date = Self.httpDate(text) {
                seconds = date.timeIntervalSince(now)
            }
        }
        guard let seconds, seconds > 0, seconds <= Self.longestServerDelay else { return nil }
        return seconds
    }

    /// 0.5 s × 2^n capped at 8 s, less up to 25%: retry n+1 after n earlier retries.
    package func backoff(retriesSoFar: Int, randomFraction: Double) -> Double {
        let base = min(Self.initialDelay * pow(2, Double(min(retriesSoFar, 30))), Self.maxDelay)
        let fraction = min(max(randomFraction, 0), 1)
        return base * (1 - Self.maxJitter * fraction)
    }

    /// A few words on why the request is tried again.
    static func reason(for error: ModelError) -> String {
        switch error {
        case .http(let status, _, _, _, _), .notAStream(let status, _, _):
            switch status {
            case 429: return "rate limited"
            case 408: return "the server timed out"
            case 409: return "the server reported a conflict"
            default: return "server error \(status)"
            }
        case .transport(let error, _):
            switch error {
            case .timedOut: return "no answer in time"
            case .connectionLost: return "connection dropped"
            case .hostNotFound: return "host not found"
            default: return "connection failed"
            }
        case .cutOff: return "the answer broke off"
        case .localServerDown: return "the offline model is not answering"
        default: return "request failed"
        }
    }

    /// Parses the three HTTP date formats (RFC 9110 §5.6.7), preferred one first.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
