import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanModel
import Synchronization

/// An in-memory ``HTTPTransport``: each request is answered by a closure, as a Responses API
/// stream, so tests of the engine and the command runner need no socket and no Python.
package final class ScriptedTransport: HTTPTransport {
    /// What one request gets back.
    package enum Answer: Sendable {
        /// A 200 stream whose text deltas spell this text, then `response.completed`.
        case text(String)
        /// An HTTP error with an OpenAI-style error body.
        case error(status: Int, message: String)
        /// A 200 answer whose body arrives in exactly these reads.
        case chunks([Data], contentType: String)
    }

    private let answer: @Sendable (HTTPRequest, Int) -> Answer
    private let log = Mutex<[HTTPRequest]>([])

    /// - Parameter answer: the answer to request number N (from 1), given the request.
    package init(answer: @escaping @Sendable (HTTPRequest, Int) -> Answer) {
        self.answer = answer
    }

    /// Answers every request with 200 and a body that arrives in exactly these reads.
    package convenience init(chunks: [Data], contentType: String = "text/event-stream") {
        self.init { _, _ in .chunks(chunks, contentType: contentType) }
    }

    /// A model that always writes a plan passing the check for the lesson length the prompt asks for, and a
    /// quiz or rubric passing theirs when the prompt asks for one.
    package static func passingPlans() -> ScriptedTransport {
        ScriptedTransport { request, number in
            if let assessment = AssessmentFixtures.answer(toPrompt: AssessmentFixtures.input(of: request.body)) {
                return .text(assessment)
            }
            return .text(PlanFixtures.passing(minutes: PlanFixtures.requestedMinutes(in: request.body) ?? 45, number: number))
        }
    }

    /// Every request sent so far, in order.
    package var requests: [HTTPRequest] { log.withLock { $0 } }

    /// The prompts (`input`) of the requests sent so far.
    package var prompts: [String] {
        requests.map { request in
            let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            return object?["input"] as? String ?? ""
        }
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPStreamingResponse {
        let number = log.withLock {
            $0.append(request)
            return $0.count
        }
        switch answer(request, number) {
        case .text(let text):
            return HTTPStreamingResponse(
                head: HTTPResponseHead(status: 200, headers: ["content-type": "text/event-stream"]),
                body: HTTPBody(Chunks([SSEFixtures.responsesStream(text: text)])))
        case .chunks(let chunks, let contentType):
            return HTTPStreamingResponse(
                head: HTTPResponseHead(status: 200, headers: ["content-type": contentType]), body: HTTPBody(Chunks(chunks)))
        case .error(let status, let message):
            let body = #"{"error":{"message":\#(SSEFixtures.jsonString(message)),"type":"invalid_request_error","code":null}}"#
            return HTTPStreamingResponse(
                head: HTTPResponseHead(status: status, headers: ["content-type": "application/json"]),
                body: HTTPBody(Chunks([Data(body.utf8)])))
        }
    }

    /// A body that hands out its chunks one by one.
    private final class Chunks: HTTPBodySource {
        private let remaining: Mutex<[Data]>
        init(_ chunks: [Data]) { remaining = Mutex(chunks) }
        func next() async throws -> Data? {
            remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }
}
