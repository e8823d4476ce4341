import Foundation

/// The life of one turn, with no I/O: idle → sending → streaming → completed / incomplete /
/// failed / cancelled, and sending → waiting → sending again when an attempt fails before any text and
/// the retry policy says to try again. The engine feeds it what happened and does what it returns (show,
/// warn, wait and send again, finish), on an injected clock.
package struct TurnStateMachine: Sendable {
    package enum State: Equatable, Sendable {
        case idle
        case sending
        case streaming
        /// An attempt failed before any text; the same request goes out again after the wait.
        case waiting(retry: Int)
        case finished(TurnStatus)
    }

    /// What the caller should do after an input.
    package enum Action: Equatable, Sendable {
        case none
        /// Show this text now.
        case show(String)
        /// Tell the user once that part of the stream was unreadable.
        case warn(String)
        /// Wait this long, then send the same request again (``restart()``).
        case retry(RetryWait)
        /// The turn is over.
        case finish(TurnStatus)
    }

    package private(set) var state: State = .idle
    /// Answer text received so far.
    package private(set) var text = ""
    package private(set) var usage: Usage?
    package private(set) var responseID: String?
    /// Why the turn did not complete.
    package private(set) var failure: ModelError?
    /// Whether the answer came as a stream; the caller clears it for a whole (non-streamed)
    /// answer, which the footer and the transcript then say.
    package var isStreamed = true
    /// Retries made so far for this turn's request.
    package private(set) var retries = 0
    private var refusal = ""
    private var warned = false
    /// The output limit the request carried, for the message when it is hit.
    private let maxOutputTokens: Int
    /// Answer and refusal bytes allowed before the turn is stopped (see ``largestAnswer(maxOutputTokens:)``).
    private let answerLimit: Int
    /// UTF-8 bytes of `text` and `refusal` so far.
    private var answerBytes = 0

    package init(maxOutputTokens: Int) {
        self.maxOutputTokens = maxOutputTokens
        self.answerLimit = Self.largestAnswer(maxOutputTokens: maxOutputTokens)
    }

    /// The most answer text one turn takes, in UTF-8 bytes: 256 bytes per token of the output
    /// limit (a token is about 4), at least 256 KB and at most 4 MB. A plan is 5–20 KB; a
    /// server that sends far more than the limit allows is looping or hostile, and stopping it
    /// keeps memory bounded.
    package static func largestAnswer(maxOutputTokens: Int) -> Int {
        min(4 * 1024 * 1024, max(256 * 1024, 256 * max(maxOutputTokens, 0)))
    }

    /// Whether any answer text has been shown: after that nothing may be retried automatically.
    package var hasShownText: Bool { !text.isEmpty }

    package mutating func send() {
        guard state == .idle else { return }
        state = .sending
    }

    /// One event from the stream.
    package mutating func receive(_ event: StreamEvent) -> Action {
        guard state == .sending || state == .streaming else { return .none }
        return handle(event)
    }

    private mutating func handle(_ event: StreamEvent) -> Action {
        switch event {
        case .created(let id):
            responseID = id ?? responseID
            return .none
        case .textDelta(let delta):
            state = .streaming
            let (kept, over) = taking(delta)
            text += kept
            if over {
                // What fits is shown with the turn's end; the caller stops reading.
                _ = finish(.incomplete, because: .answerTooLong(limitBytes: answerLimit))
            }
            return kept.isEmpty ? .none : .show(kept)
        case .refusalDelta(let delta):
            state = .streaming
            let (kept, over) = taking(delta)
            refusal += kept
            if over { return finish(.incomplete, because: .answerTooLong(limitBytes: answerLimit)) }
            return .none
        case .completed(let id, let usage):
            responseID = id ?? responseID
            self.usage = usage ?? self.usage
            // llama-server's Responses API says `completed` even when it stopped at the output
            // limit; its usage gives it away. (OpenAI sends `response.incomplete` instead.)
            if let used = self.usage?.outputTokens, used >= maxOutputTokens {
                if Self.isBlank(text) { return finish(.failed, because: .nothingWritten(maxOutputTokens: maxOutputTokens, stated: false)) }
                return finish(
                    .incomplete, because: .incomplete(reason: "max_output_tokens", maxOutputTokens: maxOutputTokens))
            }
            if !refusal.isEmpty, Self.isBlank(text) {
                return finish(.failed, because: .refusal(refusal))
            }
            if Self.isBlank(text) {
                return finish(.failed, because: .emptyAnswer)
            }
            return finish(.completed, because: nil)
        case .incomplete(let id, let reason, let usage, let stated):
            responseID = id ?? responseID
            self.usage = usage ?? self.usage
            // The limit the response says it had: a proxy may have lowered the one asked for.
            let limit = stated ?? maxOutputTokens
            // The whole budget went to reasoning: there is no draft to finish.
            if reason == "max_output_tokens", Self.isBlank(text) {
                return finish(.failed, because: .nothingWritten(maxOutputTokens: limit, stated: limit != maxOutputTokens))
            }
            return finish(.incomplete, because: .incomplete(reason: reason, maxOutputTokens: limit))
        case .failed(let id, let message, let code):
            responseID = id ?? responseID
            return finish(.failed, because: .failed(message: message, code: code))
        case .error(let message, let code):
            return finish(.failed, because: .streamError(message: message, code: code))
        case .unknown:
            return .none
        case .malformed(let description):
            guard !warned else { return .none }
            warned = true
            return .warn("Skipped an unreadable part of the answer (\(description)).")
        }
    }

    /// An attempt failed: wait and send it again when nothing was shown yet and `policy` allows another try,
    /// else the turn fails with the attempt's error. Once text is on screen a retry would show it twice, so
    /// the turn fails and `/retry` is the way.
    package mutating func attemptFailed(_ failure: RequestFailure, policy: RetryPolicy, now: Date, randomFraction: Double)
        -> Action
    {
        guard !isFinished else { return .none }
        guard !hasShownText else { return finish(.failed, because: failure.error) }
        switch policy.decide(after: failure, retriesSoFar: retries, now: now, randomFraction: randomFraction) {
        case .retry(let wait):
            retries += 1
            state = .waiting(retry: retries)
            return .retry(wait)
        case .giveUp:
            return finish(.failed, because: failure.error)
        }
    }

    /// Starts a fresh attempt after a failure before any text was shown, forgetting what the
    /// failed attempt said. Does nothing once text was shown or the turn is over.
    package mutating func restart() {
        guard !isFinished, !hasShownText else { return }
        state = .sending
        refusal = ""
        usage = nil
        responseID = nil
        isStreamed = true
    }

    /// The request failed before or during the stream.
    package mutating func fail(_ error: ModelError) -> Action {
        guard !isFinished else { return .none }
        return finish(.failed, because: error)
    }

    /// The user pressed Ctrl-C.
    package mutating func cancel() -> Action {
        guard !isFinished else { return .none }
        return finish(.cancelled, because: nil)
    }

    /// The body ended; a stream that never said it was done was cut off.
    package mutating func endOfStream() -> Action {
        guard !isFinished else { return .none }
        return finish(.failed, because: .cutOff)
    }

    /// As much of `delta` as the answer limit leaves room for, cut between characters, and
    /// whether the limit was passed.
    private mutating func taking(_ delta: String) -> (kept: String, over: Bool) {
        let size = delta.utf8.count
        guard answerBytes + size > answerLimit else {
            answerBytes += size
            return (delta, false)
        }
        var room = answerLimit - answerBytes
        var end = delta.startIndex
        for index in delta.indices {
            let length = delta[index...index].utf8.count
            guard length <= room else { break }
            room -= length
            end = delta.index(after: index)
        }
        answerBytes = answerLimit - room
        return (String(delta[..<end]), true)
    }

    package var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Whether the text is empty or only whitespace; stops at the first visible character rather
    /// than trimming a copy of what may be a whole plan.
    static func isBlank(_ text: String) -> Bool {
        let blank = CharacterSet.whitespacesAndNewlines
        return !text.unicodeScalars.contains { !blank.contains($0) }
    }

    private mutating func finish(_ status: TurnStatus, because error: ModelError?) -> Action {
        state = .finished(status)
        failure = error
        return .finish(status)
    }
}

/// How a turn ended.
package enum TurnStatus: String, Codable, Sendable {
    case completed, incomplete, failed, cancelled
}
