import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import Testing

/// A unit folded from its lines: each lesson keeps its own current version, `/lesson N` moves between them, and a
/// transcript without a unit reads exactly as before.
@Suite struct UnitStateTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func state(_ records: [TranscriptRecord]) throws -> SessionState {
        let inputs = try LessonInputs(grade: .threeTo5, topic: "Fractions", minutes: 45)
        var state = SessionState(
            header: SessionHeader(id: "0123456789abcdef", created: t0, inputs: inputs, model: "m", baseUrl: "", toolVersion: "t"))
        for record in records { state.apply(record) }
        return state
    }

    static func turn(_ number: Int, lesson: Int?, base: Int? = nil, version: Int?, command: String = "/unit lesson") throws
        -> [TranscriptRecord]
    {
        let inputs = try LessonInputs(grade: .threeTo5, topic: "Fractions", minutes: 45)
        return [
            .turnStarted(
                TurnStarted(
                    turn: number, at: t0, command: command, template: "unit-lesson", inputs: inputs, baseVersion: base,
                    model: "m", instructions: "", input: "", maxOutputTokens: 1, lesson: lesson)),
            .turnEnded(
                TurnEnded(
                    turn: number, at: t0, status: .completed, output: "plan \(number)", usage: nil, responseId: nil, error: nil,
                    version: version, durationMs: 1)),
        ]
    }

    static func unit(lessons: Int) throws -> TranscriptRecord {
        let inputs = try LessonInputs(grade: .threeTo5, topic: "Fractions", minutes: 45)
        let outline = (1...lessons).map { UnitLessonOutline(title: "L\($0)", objective: "Students will do \($0).") }
        return .unit(UnitRecord(at: t0, turn: 1, inputs: inputs, framework: nil, plan: UnitPlan(goal: "g", questions: [], lessons: outline)))
    }

    @Test func eachLessonKeepsItsCurrentVersionAndLessonMovesBetweenThem() throws {
        var records = [try Self.unit(lessons: 3)]
        records += try Self.turn(2, lesson: 1, version: 1)
        records += try Self.turn(3, lesson: 2, version: 2)
        records += try Self.turn(4, lesson: 3, version: 3)
        var state = try Self.state(records)
        #expect(state.unit?.lessons == 3)
        #expect(state.currentLesson == 3 && state.currentVersion == 3)
        #expect(state.lessonVersions == [1: 1, 2: 2, 3: 3])

        state.apply(.lesson(LessonRecord(at: Self.t0, number: 2)))
        #expect(state.currentLesson == 2 && state.current?.number == 2)
        // A revision of lesson 2 (its turn names the lesson) makes a version of lesson 2 only.
        for record in try Self.turn(5, lesson: 2, base: 2, version: 4, command: "/shorten 30") { state.apply(record) }
        #expect(state.lessonVersions == [1: 1, 2: 4, 3: 3])
        #expect(state.version(4)?.lesson == 2)
        // /undo goes back within the lesson; a hand edit stays in it.
        state.apply(.undo(UndoRecord(at: Self.t0, from: 4, to: 2, lesson: 2)))
        #expect(state.lessonVersions[2] == 2 && state.currentLesson == 2)
        state.apply(.handEdit(HandEditRecord(at: Self.t0, command: "/edit", baseVersion: 2, version: 5, text: "edited", lesson: 2)))
        #expect(state.lessonVersions == [1: 1, 2: 5, 3: 3])
        // A lesson not written yet cannot be made current.
        state.apply(.lesson(LessonRecord(at: Self.t0, number: 9)))
        #expect(state.currentLesson == 2)
    }

    @Test func aTranscriptWithoutAUnitHasNoLessons() throws {
        var records = try Self.turn(1, lesson: nil, version: 1, command: "/generate")
        records += try Self.turn(2, lesson: nil, base: 1, version: 2, command: "/shorten 30")
        records.append(.lesson(LessonRecord(at: Self.t0, number: 1)))
        let state = try Self.state(records)
        #expect(state.unit == nil && state.currentLesson == nil && state.lessonVersions.isEmpty)
        #expect(state.currentVersion == 2 && state.version(2)?.lesson == nil)
    }
}
