import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanModel
import ModelTestSupport
import Testing

@Suite struct SSEParserTests {
    /// Short enough that splitting it at every byte stays quick, yet it has every kind of event.
    private static let stream = SSEFixtures.responsesStream(text: "Plan – 3–5 😀 “ok” \"q\" \\ 👩‍🏫 done")
    private static let expected = SSEFixtures.messages(in: [stream])

    private func messages(_ text: String) -> [SSEMessage] {
        SSEFixtures.messages(in: [Data(text.utf8)])
    }

    @Test func readsARealisticResponsesStream() throws {
        let messages = Self.expected
        #expect(messages.count > 20)
        #expect(messages.first?.event == "response.created")
        #expect(messages.last?.event == "response.completed")
        #expect(messages.allSatisfy { $0.id == nil })
        #expect(messages.contains { $0.event == "response.reasoning_summary_text.delta" && $0.data.contains("3–5") })
        let firstDelta = try #require(messages.first { $0.event == "response.output_text.delta" })
        #expect(firstDelta.data.hasPrefix(#"{"type":"response.output_text.delta","#))
    }

    @Test func anyTwoChunkSplitGivesTheSameMessages() {
        let bytes = Self.stream
        for cut in 1..<bytes.count {
            let got = SSEFixtures.messages(in: SSEFixtures.chunks(of: bytes, cuttingAt: [cut]))
            if got != Self.expected {
                Issue.record("split at byte \(cut) changed the messages")
                return
            }
        }
    }

    @Test func oneByteAtATimeGivesTheSameMessages() {
        let bytes = Self.stream
        let single = bytes.indices.map { bytes[$0...$0] }
        #expect(SSEFixtures.messages(in: single) == Self.expected)
    }

    @Test func randomChunkingGivesTheSameMessages() {
        var random = SeededGenerator(seed: 42)
        let bytes = Self.stream
        for _ in 0..<200 {
            let cuts = (0..<Int.random(in: 1...40, using: &random)).map { _ in Int.random(in: 1..<bytes.count, using: &random) }
            #expect(SSEFixtures.messages(in: SSEFixtures.chunks(of: bytes, cuttingAt: cuts)) == Self.expected)
        }
    }

    @Test(arguments: ["\r\n", "\r"])
    func otherLineEndingsGiveTheSameMessages(ending: String) {
        let text = SSEFixtures.withLineEndings(String(decoding: Self.stream, as: UTF8.self), ending)
        let bytes = Data(text.utf8)
        #expect(SSEFixtures.messages(in: [bytes]) == Self.expected)
        // Every split, including those between a CR and its LF.
        for cut in 1..<bytes.count {
            if SSEFixtures.messages(in: SSEFixtures.chunks(of: bytes, cuttingAt: [cut])) != Self.expected {
                Issue.record("split at byte \(cut) changed the messages")
                return
            }
        }
    }

    @Test func crAndLFInDifferentChunksAreOneLineEnd() {
        var parser = SSEParser()
        #expect(parser.push(Data("data: a\r".utf8)) == [])
        // Were the LF a line of its own, it would dispatch "a" and then "b" separately.
        #expect(parser.push(Data("\ndata: b\r".utf8)) == [])
        #expect(parser.push(Data("\n\r".utf8)) == [SSEMessage(data: "a\nb")])
        #expect(parser.push(Data("\n".utf8)) == [])
        #expect(parser.push(Data("data: c\n\n".utf8)) == [SSEMessage(data: "c")])
        #expect(parser.finish() == [])
    }

    @Test func crThenCRIsABlankLine() {
        #expect(messages("data: a\r\rdata: b\r\r") == [SSEMessage(data: "a"), SSEMessage(data: "b")])
    }

    @Test func mixedLineEndings() {
        #expect(messages("data: a\r\ndata: b\rdata: c\n\r\ndata: d\n\r") == [SSEMessage(data: "a\nb\nc"), SSEMessage(data: "d")])
    }

    @Test func commentsAreIgnored() {
        #expect(messages(": keep-alive\n\n") == [])
        #expect(messages(":\n: ping\ndata: x\n: between\ndata: y\n\n") == [SSEMessage(data: "x\ny")])
    }

    @Test func multiLineDataIsJoinedWithLF() {
        #expect(
            messages("data: first\ndata:second\ndata:  third\ndata\ndata:\n\n") == [
                SSEMessage(data: "first\nsecond\n third\n\n")
            ])
    }

    @Test func onlyOneSpaceAfterTheColonIsDropped() {
        #expect(messages("data:x\n\ndata: x\n\ndata:  x\n\ndata:\tx\n\n").map(\.data) == ["x", "x", " x", "\tx"])
    }

    @Test func eventWithoutDataIsNotDispatchedAndItsNameDoesNotLeak() {
        #expect(messages("event: ping\n\ndata: a\n\n") == [SSEMessage(data: "a")])
        #expect(messages("event: response.created\nevent: response.done\ndata: z\n\n") == [SSEMessage(event: "response.done", data: "z")])
        #expect(messages("event:\ndata: z\n\n") == [SSEMessage(data: "z")])
    }

    @Test func unknownEventsAndFieldsPassThroughOrAreIgnored() {
        #expect(
            messages("event: response.made_up\nretry: 1000\nfoo: bar\ndata: {}\n\n") == [
                SSEMessage(event: "response.made_up", data: "{}")
            ])
    }

    @Test func lastEventIDPersistsUntilChanged() {
        let got = messages("id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 9\u{0}\ndata: d\n\nid: 10\n\ndata: e\n\n")
        #expect(got.map(\.id) == ["7", "7", nil, nil, "10"])
    }

    @Test func finalEventWithoutTrailingBlankLineIsDelivered() {
        var parser = SSEParser()
        #expect(parser.push(Data("data: a\n\nevent: last\ndata: b\n".utf8)) == [SSEMessage(data: "a")])
        #expect(parser.finish() == [SSEMessage(event: "last", data: "b")])

        var unterminated = SSEParser()
        #expect(unterminated.push(Data("data: {\"x\":1}".utf8)) == [])
        #expect(unterminated.finish() == [SSEMessage(data: "{\"x\":1}")])
        #expect(unterminated.finish() == [])
    }

    @Test func finishResetsTheParser() {
        var parser = SSEParser()
        _ = parser.push(Data("id: 1\nevent: e\ndata: a".utf8))
        #expect(parser.finish() == [SSEMessage(event: "e", data: "a", id: "1")])
        #expect(parser.push(Data("data: b\n\n".utf8)) == [SSEMessage(data: "b")])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        var bytes = Data("event: e\u{FF}\ndata: a".utf8)
        bytes += [0xFF, 0xC3, 0x28, 0xE2, 0x80]
        bytes += Data("b\n\ndata: tail".utf8)
        bytes += [0xF0, 0x9F]
        let got = SSEFixtures.messages(in: [bytes])
        #expect(got.count == 2)
        #expect(got.first?.data == "a\u{FFFD}\u{FFFD}(\u{FFFD}b")
        #expect(got.first?.event == "e\u{FF}")
        #expect(got.last?.data == "tail\u{FFFD}")
    }

    @Test func multiByteCharactersSplitAcrossChunksArriveWhole() {
        let bytes = Data("data: – 😀 👩‍🏫 ä\n\n".utf8)
        for cut in 1..<bytes.count {
            let got = SSEFixtures.messages(in: SSEFixtures.chunks(of: bytes, cuttingAt: [cut, cut + 1]))
            #expect(got == [SSEMessage(data: "– 😀 👩‍🏫 ä")])
        }
    }

    @Test func leadingByteOrderMarkIsDropped() {
        let bytes = Data([0xEF, 0xBB, 0xBF]) + Data("data: a\n\n".utf8)
        for cut in 1..<5 {
            #expect(SSEFixtures.messages(in: SSEFixtures.chunks(of: bytes, cuttingAt: [cut])) == [SSEMessage(data: "a")])
        }
        // Only at the very start: a later one is content.
        #expect(messages("data: a\n\n\u{FEFF}data: b\n\n").map(\.data) == ["a"])
    }

    @Test func longLinesAcrossManySmallChunks() {
        let long = String(repeating: "x–", count: 50_000)
        let bytes = Data("data: \(long)\n\ndata: short\n\n".utf8)
        let chunks = stride(from: 0, to: bytes.count, by: 7).map { bytes[$0..<min($0 + 7, bytes.count)] }
        #expect(SSEFixtures.messages(in: chunks) == [SSEMessage(data: long), SSEMessage(data: "short")])
    }

    @Test func emptyChunksChangeNothing() {
        var parser = SSEParser()
        #expect(parser.push(Data()) == [])
        #expect(parser.push(Data("data: a\r".utf8)) == [])
        #expect(parser.push(Data()) == [])
        #expect(parser.push(Data("\ndata: b\n\n".utf8)) == [SSEMessage(data: "a\nb")])
    }
}

/// The raw bytes a sink is offered are the event's data, whatever the chunking, and a sink that
/// takes them gets no message.
@Suite struct SSEParserRawSinkTests {
    /// Records the raw data, then asks for the message too.
    private struct Recorder: SSEEventSink {
        var raw: [String] = []
        var messages: [SSEMessage] = []
        var takeRaw = false

        mutating func take(rawData: UnsafeBufferPointer<UInt8>) -> Bool {
            raw.append(String(decoding: rawData, as: UTF8.self))
            return takeRaw
        }

        mutating func take(_ message: SSEMessage) {
            messages.append(message)
        }
    }

    private func record(_ chunks: [Data], takeRaw: Bool = false) -> Recorder {
        var parser = SSEParser()
        var recorder = Recorder(takeRaw: takeRaw)
        for chunk in chunks {
            parser.push(chunk, into: &recorder)
        }
        parser.finish(into: &recorder)
        return recorder
    }

    @Test func rawDataMatchesTheMessagesAtEverySplit() {
        let text = "event: a\ndata: one\ndata: two\n\n: comment\nid: 7\nevent: b\ndata: {\"x\":\"–\"}\r\n\r\ndata: last"
        let bytes = Data(text.utf8)
        let expected = SSEFixtures.messages(in: [bytes])
        #expect(expected.count == 3)
        for cut in 0..<bytes.count {
            for second in [cut, min(cut + 1, bytes.count - 1), min(cut + 5, bytes.count - 1)] {
                let recorded = record(SSEFixtures.chunks(of: bytes, cuttingAt: [cut, second]))
                #expect(recorded.messages == expected, "cut at \(cut), \(second)")
                #expect(recorded.raw == expected.map(\.data), "cut at \(cut), \(second)")
            }
        }
    }

    @Test func takenRawDataMakesNoMessage() {
        let recorded = record([SSEFixtures.responsesStream()], takeRaw: true)
        #expect(recorded.messages.isEmpty)
        #expect(recorded.raw == SSEFixtures.messages(in: [SSEFixtures.responsesStream()]).map(\.data))
    }
}
