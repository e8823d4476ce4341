import Foundation
import ModelTestSupport
import Testing

@testable import LessonPlanCore
@testable import LessonPlanModel

/// A key or `--header` value the server says back never reaches the screen or the transcript.
@Suite struct SecretMaskTests {
    let key = "lp-live.SECRETKEY-9z8y7x6w5v"
    var settings: ModelSettings {
        ModelSettings(
            baseURL: URL(fileURLWithPath: "/"), apiKey: key, model: "m",
            extraHeaders: ["X-Proxy-Token": "classroom-token-7", "X-Short": "abc", "X-Auth": "Bearer tok.PROXY-55aa"])
    }

    @Test func everySecretIsHiddenWhateverItsPrefix() {
        let mask = SecretMask(settings: settings)
        let said = "Invalid key 'Bearer \(key)'; token=classroom-token-7 (\(key)) proxy tok.PROXY-55aa abc"
        let shown = mask.mask(said)
        #expect(shown == "Invalid key 'Bearer [hidden]'; token=[hidden] ([hidden]) proxy [hidden] abc")
        #expect(mask.mask("nothing to hide") == "nothing to hide")
        #expect(SecretMask.none.mask(said) == said)
    }

    /// A credential in the endpoint's query or user part is hidden however short it is, as the URL writes it;
    /// the same few characters elsewhere in a lesson are left alone.
    @Test func aShortSecretInTheEndpointsQueryIsHidden() throws {
        let endpoint = try #require(URL(string: "https://bob:pw9@gw.example/v1/chat?api-key=ab12c&v=2"))
        let mask = SecretMask(settings: ModelSettings(baseURL: URL(fileURLWithPath: "/"), endpoint: endpoint, apiKey: nil, model: "m"))
        let said = "404: no route for https://bob:pw9@gw.example/v1/chat?api-key=ab12c&v=2 (ab12c is 5 letters)"
        #expect(mask.mask(said) == "404: no route for https://[hidden]@gw.example/v1/chat?api-key=[hidden]&v=[hidden] (ab12c is 5 letters)")
    }

    /// Split at every point, in two and in three pieces: the stream shows the same as the whole.
    @Test func aSecretSplitAcrossPiecesIsStillHidden() {
        let mask = SecretMask(settings: settings)
        let text = "Your key is \(key), and again:\(key)!  classroom-token-7 ends"
        let whole = mask.mask(text)
        let bytes = Array(text.utf8)
        for cut in 0...bytes.count {
            for second in stride(from: cut, through: bytes.count, by: 7) {
                var stream = SecretMask.Stream(mask)
                var shown = stream.push(Array(bytes[..<cut]))
                shown += stream.push(Array(bytes[cut..<second]))
                shown += stream.push(Array(bytes[second...]))
                shown += stream.flush()
                #expect(String(decoding: shown, as: UTF8.self) == whole, "cut at \(cut), \(second)")
            }
        }
    }

    @Test func aPrefixOfASecretWaitsOnlyUntilItIsKnownNotToBeOne() {
        var stream = SecretMask.Stream(SecretMask(secrets: [key]))
        #expect(stream.push(Array("abc lp-li".utf8)) == Array("abc ".utf8))
        #expect(stream.push(Array("ne".utf8)) == Array("lp-line".utf8))
        #expect(stream.flush().isEmpty)
    }

    @Test func errorsAndEventsAreMasked() {
        let mask = SecretMask(settings: settings)
        let error = ModelError.http(status: 403, message: "key \(key) denied", code: nil, model: "m", keySuffix: nil)
        #expect(error.masked(by: mask).errorDescription?.contains(key) == false)
        #expect(error.masked(by: mask).errorDescription?.contains("[hidden]") == true)
        let event = StreamEvent.error(message: "header classroom-token-7 rejected", code: nil)
        #expect(event.masked(by: mask) == .error(message: "header [hidden] rejected", code: nil))
        #expect(
            ModelError.notAStream(status: 502, firstLine: key, host: "h").masked(by: mask)
                == .notAStream(status: 502, firstLine: "[hidden]", host: "h"))
    }

    /// Through the real stream reader: text split across deltas and reads, error events too.
    @Test func theStreamReaderMasksTextSplitAcrossDeltasAndReads() async throws {
        let half = key.count / 2
        let first = String(key.prefix(half))
        let second = String(key.dropFirst(half))
        let events = [
            #"{"type":"response.output_text.delta","delta":"The key is \#(first)"}"#,
            #"{"type":"response.output_text.delta","delta":"\#(second). Token: classroom-"}"#,
            #"{"type":"response.output_text.delta","delta":"token-7."}"#,
            #"{"type":"response.completed","response":{"id":"r"}}"#,
        ]
        let body = events.map { "data: \($0)\n\n" }.joined()
        let bytes = Array(body.utf8)
        // Reads cut at odd places, across events.
        let chunks = stride(from: 0, to: bytes.count, by: 37).map { Data(bytes[$0..<min($0 + 37, bytes.count)]) }
        let client = ModelClient(transport: ScriptedTransport(chunks: chunks), settings: settings)
        var text = ""
        var ended = false
        for try await event in try await client.open(instructions: "i", input: "x") {
            if case .textDelta(let delta) = event { text += delta }
            if case .completed = event { ended = true }
        }
        #expect(text == "The key is [hidden]. Token: [hidden].")
        #expect(ended)
    }
}
