import Foundation
import ModelTestSupport
import Testing

@testable import LessonPlanCore
@testable import LessonPlanModel

/// What a hostile or broken stream can cost: bounded text, bounded lines, and damaged text kept
/// with replacement characters rather than dropped.
@Suite struct StreamBoundsTests {
    @Test func theAnswerLimitFollowsTheOutputLimitWithinFixedBounds() {
        #expect(TurnStateMachine.largestAnswer(maxOutputTokens: 16) == 256 * 1024)
        #expect(TurnStateMachine.largestAnswer(maxOutputTokens: 2048) == 512 * 1024)
        #expect(TurnStateMachine.largestAnswer(maxOutputTokens: 8192) == 2 * 1024 * 1024)
        #expect(TurnStateMachine.largestAnswer(maxOutputTokens: 128_000) == 4 * 1024 * 1024)
    }

    @Test func anAnswerPastTheLimitStopsAsADraftCutAtTheLimit() {
        var machine = TurnStateMachine(maxOutputTokens: 256)
        machine.send()
        let limit = TurnStateMachine.largestAnswer(maxOutputTokens: 256)
        // 3-byte characters, so the limit falls inside one: the cut is between characters.
        let piece = String(repeating: "–", count: 10_000)
        var shown = 0
        var deltas = 0
        while !machine.isFinished, deltas < 1_000 {
            if case .show(let text) = machine.receive(.textDelta(piece)) { shown += text.utf8.count }
            deltas += 1
        }
        #expect(machine.state == .finished(.incomplete))
        #expect(machine.failure == .answerTooLong(limitBytes: limit))
        #expect(machine.text.utf8.count == limit - limit % 3)
        #expect(shown == machine.text.utf8.count)
        #expect(machine.receive(.textDelta("more")) == .none)
        #expect(
            machine.failure?.errorDescription
                == "The answer passed 256 KB, far longer than any lesson plan, so it was stopped; the text so far is kept as a draft; type /retry to ask again."
        )
    }

    @Test func anEndlessRefusalIsStoppedToo() {
        var machine = TurnStateMachine(maxOutputTokens: 256)
        machine.send()
        for _ in 0..<100 where !machine.isFinished {
            _ = machine.receive(.refusalDelta(String(repeating: "no ", count: 10_000)))
        }
        #expect(machine.failure == .answerTooLong(limitBytes: 256 * 1024))
    }

    @Test func aLineWithoutEndOverflowsTheParserWhichLetsGo() {
        var parser = SSEParser()
        let block = Data(repeating: UInt8(ascii: "a"), count: 256 * 1024)
        _ = parser.push(Data("data: {\"delta\":\"".utf8))
        var pushed = 0
        while !parser.overflowed, pushed < 64 {
            #expect(parser.push(block).isEmpty)
            pushed += 1
        }
        #expect(parser.overflowed)
        // The opening bytes plus 32 blocks is just past 8 MB.
        #expect(pushed == SSEParser.largestLine / block.count)
        #expect(parser.push(Data("\n\ndata: x\n\n".utf8)).isEmpty)
    }

    @Test func manyDataLinesInOneEventOverflowToo() {
        var parser = SSEParser()
        let lines = Data(String(repeating: "data: " + String(repeating: "b", count: 1000) + "\n", count: 1000).utf8)
        var pushed = 0
        while !parser.overflowed, pushed < 20 {
            _ = parser.push(lines)
            pushed += 1
        }
        #expect(parser.overflowed)
    }

    @Test func anOverflowingLineFailsTheStreamWithItsSentence() async throws {
        let head = Data("data: {\"type\":\"response.output_text.delta\",\"delta\":\"".utf8)
        let block = Data(repeating: UInt8(ascii: "a"), count: 1024 * 1024)
        let client = ModelClient(
            transport: ScriptedTransport(chunks: [head] + Array(repeating: block, count: 12)),
            settings: ModelSettings(baseURL: URL(fileURLWithPath: "/"), apiKey: "k", model: "m"))
        var events = try await client.open(instructions: "i", input: "x").makeAsyncIterator()
        await #expect(throws: ModelError.lineTooLong(limitBytes: SSEParser.largestLine)) {
            while try await events.next() != nil {}
        }
        #expect(
            ModelError.lineTooLong(limitBytes: SSEParser.largestLine).errorDescription
                == "The server sent a line of more than 8 MB without ending it, which no model stream does, so the answer was stopped; check --endpoint / OPENAI_BASE_URL and any proxy in between."
        )
    }

    /// Invalid UTF-8, an escaped NUL and a lone surrogate, each in a delta of a stream that then
    /// completes: every delta's text is kept, the damage shown as U+FFFD.
    @Test(arguments: [APIFlavor.responses, .chat])
    func damagedTextIsKeptWithReplacementCharacters(api: APIFlavor) async throws {
        func event(_ deltaJSON: String) -> Data {
            let json =
                api == .responses
                ? #"{"type":"response.output_text.delta","delta":\#(deltaJSON)}"#
                : #"{"id":"c","choices":[{"index":0,"delta":{"content":\#(deltaJSON)}}]}"#
            return Data("data: \(json)\n\n".utf8)
        }
        var invalid = Data("data: ".utf8)
        invalid.append(
            Data(
                (api == .responses
                    ? #"{"type":"response.output_text.delta","delta":"bad "#
                    : #"{"id":"c","choices":[{"index":0,"delta":{"content":"bad "#).utf8))
        invalid.append(contentsOf: [0xFF, 0xC3])
        invalid.append(Data((api == .responses ? #" bytes "}"# : #" bytes "}}]}"#).utf8))
        invalid.append(Data("\n\n".utf8))
        let end =
            api == .responses
            ? #"data: {"type":"response.completed","response":{"id":"r"}}"# + "\n\n"
            : #"data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"
        let chunks = [event(#""Tides: ""#), invalid, event(#""nul\u0000 ""#), event(#""lone\ud800 ""#), event(#""end""#), Data(end.utf8)]
        let client = ModelClient(
            transport: ScriptedTransport(chunks: chunks),
            settings: ModelSettings(baseURL: URL(fileURLWithPath: "/"), apiKey: "k", model: "m", api: api))
        var machine = TurnStateMachine(maxOutputTokens: 1000)
        machine.send()
        for try await event in try await client.open(instructions: "i", input: "x") {
            _ = machine.receive(event)
        }
        #expect(machine.text == "Tides: bad \u{FFFD}\u{FFFD} bytes nul\u{FFFD} lone\u{FFFD} end")
        #expect(machine.state == .finished(.completed))
    }
}
