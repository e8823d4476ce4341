import Foundation
import LessonPlanCore
import LessonPlanModel
import LessonPlanStore

/// Transcript records for the store's tests and the engine's: a session's header and one turn's two lines.
package enum TranscriptFixtures {
    // Milliseconds that a Double holds exactly, since the format keeps milliseconds.
    package static let t0 = Date(timeIntervalSince1970: 1_796_000_000.125)

    package static func header(id: String = "0123456789abcdef") throws -> SessionHeader {
        SessionHeader(
            id: id, created: t0, inputs: try LessonInputs(grade: .sixTo8, topic: "Photosynthesis", minutes: 45),
            model: "gpt-5.2", baseUrl: "https://api.openai.com/v1", toolVersion: "test")
    }

    package static func started(_ turn: Int, command: String, base: Int?, minutes: Int = 45) throws -> TurnStarted {
        TurnStarted(
            turn: turn, at: t0, command: command, template: "shorten",
            inputs: try LessonInputs(grade: .sixTo8, topic: "Photosynthesis", minutes: minutes), baseVersion: base,
            model: "gpt-5.2", instructions: "be good", input: "plan please", maxOutputTokens: 8192)
    }

    package static func ended(_ turn: Int, status: TurnStatus = .completed, output: String, version: Int?) -> TurnEnded {
        TurnEnded(
            turn: turn, at: t0, status: status, output: output, usage: Usage(inputTokens: 10, outputTokens: 20),
            responseId: "resp_\(turn)", error: status == .completed ? nil : "it broke", version: version, durationMs: 5)
    }
}
