import CoreTestSupport
import Foundation
import LessonPlanCore
import LessonPlanModel

/// The streams built on ``SSEFixtures``' JSON strings (CoreTestSupport).
extension SSEFixtures {
    /// Token counts used when a test does not care about them.
    package static let defaultUsage = Usage(inputTokens: 812, outputTokens: 1534, reasoningTokens: 640)

    /// A lesson-plan-like answer with en dashes, curly quotes, an emoji and JSON-special characters.
    package static let sampleText = """
        # Photosynthesis – Grades 3–5 🌱
        Objective: students explain how “plants make food” from light, water & CO₂.
        1. Warm-up (5 min) – ask: "Where does a tree's mass come from?"
        2. Path\\to\\notes: C:\\lessons\\plants 😀👩‍🏫
        """

    /// Cuts `text` into pieces of `size` characters, like the token deltas of a stream.
    package static func pieces(of text: String, size: Int = 3) -> [String] {
        var result: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            result.append(String(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return result
    }

    // MARK: - Framing

    /// One SSE event: an optional `event:` line, one `data:` line per line of `data`, a blank line.
    package static func event(_ name: String?, data: String) -> String {
        var out = ""
        if let name { out += "event: \(name)\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            out += "data: \(line)\n"
        }
        return out + "\n"
    }

    /// `text` with every LF replaced, to test CRLF and CR-only streams.
    package static func withLineEndings(_ text: String, _ ending: String) -> String {
        text.replacingOccurrences(of: "\n", with: ending)
    }

    /// `data` cut at the given offsets, to feed a parser chunk by chunk.
    package static func chunks(of data: Data, cuttingAt offsets: [Int]) -> [Data] {
        var result: [Data] = []
        var start = data.startIndex
        for offset in offsets.sorted() where offset > 0 && data.startIndex + offset < data.endIndex {
            let end = data.startIndex + offset
            if end > start {
                result.append(data[start..<end])
                start = end
            }
        }
        result.append(data[start...])
        return result
    }

    /// Every message in `chunks`, fed to one parser in order and flushed at the end.
    package static func messages(in chunks: [Data]) -> [SSEMessage] {
        var parser = SSEParser()
        var messages: [SSEMessage] = []
        for chunk in chunks {
            messages += parser.push(chunk)
        }
        return messages + parser.finish()
    }

    /// Every event `decoder` makes of the stream in `chunks`, as the client will see them.
    package static func events(in chunks: [Data], decoder: some StreamEventDecoder) -> [StreamEvent] {
        var decoder = decoder
        var events: [StreamEvent] = []
        for message in messages(in: chunks) {
            events += decoder.decode(message)
        }
        return events + decoder.finish()
    }

    /// The answer text the events carry, joined.
    package static func text(of events: [StreamEvent]) -> String {
        events.reduce(into: "") { text, event in
            if case .textDelta(let piece) = event { text += piece }
        }
    }

    // MARK: - Responses API

    /// How a fixture Responses stream ends.
    package enum ResponsesEnding: Sendable, Equatable {
        case completed
        case incomplete(reason: String)
        case failed(message: String, code: String)
    }

    /// The `data` of one OpenAI `response.output_text.delta` event.
    package static func responsesDeltaData(
        _ delta: String, sequenceNumber: Int = 7, itemID: String = "msg_68b1f0c9e1a08193", escaping: JSONEscaping = .minimal
    ) -> String {
        #"{"type":"response.output_text.delta","sequence_number":\#(sequenceNumber),"item_id":"\#(itemID)","output_index":1,"content_index":0,"delta":\#(jsonString(delta, escaping: escaping)),"logprobs":[],"obfuscation":"\#(obfuscation(sequenceNumber))"}"#
    }

    /// A stream as OpenAI sends it for a reasoning model: a reasoning item with summary deltas
    /// first, then the message item whose `output_text` deltas spell `text`, then the ending.
    package static func responsesStream(
        text: String = sampleText, pieces: [String]? = nil, usage: Usage? = defaultUsage,
        responseID: String = "resp_68b1f0c2a7d48193a1", ending: ResponsesEnding = .completed
    ) -> Data {
        let pieces = pieces ?? Self.pieces(of: text)
        let reasoningID = "rs_68b1f0c3b5f08193"
        let messageID = "msg_68b1f0c9e1a08193"
        let summary = ["**Planning a 3–5 lesson**", "\n\nI’ll outline ", "steps 😀"]
        var sequence = 0
        var out = ""
        func add(_ type: String, _ body: String) {
            out += event(type, data: #"{"type":"\#(type)","sequence_number":\#(sequence),\#(body)}"#)
            sequence += 1
        }
        let textJSON = jsonString(text)
        let summaryJSON = jsonString(summary.joined())
        let reasoningItem = #"{"id":"\#(reasoningID)","type":"reasoning","summary":[{"type":"summary_text","text":\#(summaryJSON)}]}"#
        let textPart = #"{"type":"output_text","annotations":[],"logprobs":[],"text":\#(textJSON)}"#
        let messageItem = #"{"id":"\#(messageID)","type":"message","status":"completed","content":[\#(textPart)],"role":"assistant"}"#

        add("response.created", #""response":\#(responseObject(id: responseID, status: "in_progress", output: "", usage: nil))"#)
        add("response.in_progress", #""response":\#(responseObject(id: responseID, status: "in_progress", output: "", usage: nil))"#)
        add("response.output_item.added", #""output_index":0,"item":{"id":"\#(reasoningID)","type":"reasoning","summary":[]}"#)
        add(
            "response.reasoning_summary_part.added",
            #""item_id":"\#(reasoningID)","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":""}"#)
        for piece in summary {
            add(
                "response.reasoning_summary_text.delta",
                #""item_id":"\#(reasoningID)","output_index":0,"summary_index":0,"delta":\#(jsonString(piece)),"obfuscation":"\#(obfuscation(sequence))""#
            )
        }
        add("response.reasoning_summary_text.done", #""item_id":"\#(reasoningID)","output_index":0,"summary_index":0,"text":\#(summaryJSON)"#)
        add(
            "response.reasoning_summary_part.done",
            #""item_id":"\#(reasoningID)","output_index":0,"summary_index":0,"part":{"type":"summary_text","text":\#(summaryJSON)}"#)
        add("response.output_item.done", #""output_index":0,"item":\#(reasoningItem)"#)
        add(
            "response.output_item.added",
            #""output_index":1,"item":{"id":"\#(messageID)","type":"message","status":"in_progress","content":[],"role":"assistant"}"#)
        add(
            "response.content_part.added",
            #""item_id":"\#(messageID)","output_index":1,"content_index":0,"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}"#)
        for piece in pieces {
            out += event("response.output_text.delta", data: responsesDeltaData(piece, sequenceNumber: sequence, itemID: messageID))
            sequence += 1
        }
        add("response.output_text.done", #""item_id":"\#(messageID)","output_index":1,"content_index":0,"text":\#(textJSON),"logprobs":[]"#)
        add("response.content_part.done", #""item_id":"\#(messageID)","output_index":1,"content_index":0,"part":\#(textPart)"#)
        add("response.output_item.done", #""output_index":1,"item":\#(messageItem)"#)
        let output = reasoningItem + "," + messageItem
        switch ending {
        case .completed:
            add("response.completed", #""response":\#(responseObject(id: responseID, status: "completed", output: output, usage: usage))"#)
        case .incomplete(let reason):
            add(
                "response.incomplete",
                #""response":\#(responseObject(id: responseID, status: "incomplete", output: output, usage: usage, incompleteReason: reason))"#)
        case .failed(let message, let code):
            let error = #"{"code":\#(jsonString(code)),"message":\#(jsonString(message))}"#
            add("response.failed", #""response":\#(responseObject(id: responseID, status: "failed", output: output, usage: usage, error: error))"#)
        }
        return Data(out.utf8)
    }

    /// A Responses stream shaped like llama-server's: no `sequence_number`, `output_index` or
    /// `content_index`, reasoning as `reasoning_text` deltas, and `timings` on the last events.
    package static func llamaServerResponsesStream(
        text: String = sampleText, pieces: [String]? = nil, usage: Usage? = defaultUsage,
        responseID: String = "resp_Xq3v0l8cZp1LwQ2m"
    ) -> Data {
        let pieces = pieces ?? Self.pieces(of: text)
        let reasoningID = "rs_Rk2mP9s0aTqW4eYb"
        let messageID = "msg_Lm5nB7c2dV9xZ1aS"
        var out = ""
        let stub = #"{"id":"\#(responseID)","object":"response","status":"in_progress"}"#
        out += event("response.created", data: #"{"type":"response.created","response":\#(stub)}"#)
        out += event("response.in_progress", data: #"{"type":"response.in_progress","response":\#(stub)}"#)
        out += event(
            "response.output_item.added",
            data:
                #"{"type":"response.output_item.added","item":{"id":"\#(reasoningID)","summary":[],"type":"reasoning","content":[],"encrypted_content":"","status":"in_progress"}}"#
        )
        out += event(
            "response.reasoning_text.delta",
            data: #"{"type":"response.reasoning_text.delta","delta":"The teacher wants – steps","item_id":"\#(reasoningID)"}"#)
        out += event(
            "response.output_item.added",
            data:
                #"{"type":"response.output_item.added","item":{"content":[],"id":"\#(messageID)","role":"assistant","status":"in_progress","type":"message"}}"#
        )
        out += event(
            "response.content_part.added",
            data: #"{"type":"response.content_part.added","item_id":"\#(messageID)","part":{"type":"output_text","text":""}}"#)
        for (index, piece) in pieces.enumerated() {
            let timings = index == pieces.count - 1 ? "," + llamaTimings : ""
            out += event(
                "response.output_text.delta",
                data: #"{"type":"response.output_text.delta","item_id":"\#(messageID)","delta":\#(jsonString(piece))\#(timings)}"#)
        }
        out += event(
            "response.output_text.done", data: #"{"type":"response.output_text.done","item_id":"\#(messageID)","text":\#(jsonString(text))}"#)
        let usageJSON =
            usage.map {
                #"{"input_tokens":\#($0.inputTokens),"output_tokens":\#($0.outputTokens),"total_tokens":\#($0.inputTokens + $0.outputTokens),"input_tokens_details":{"cached_tokens":0}}"#
            } ?? "null"
        let completed =
            #"{"id":"\#(responseID)","object":"response","created_at":1767225600,"status":"completed","model":"gpt-oss-20b","output":[{"type":"message","status":"completed","id":"\#(messageID)","content":[{"type":"output_text","annotations":[],"logprobs":[],"text":\#(jsonString(text))}],"role":"assistant"}],"usage":\#(usageJSON)}"#
        out += event("response.completed", data: #"{"type":"response.completed","response":\#(completed),\#(llamaTimings)}"#)
        return Data(out.utf8)
    }

    private static let llamaTimings =
        #""timings":{"cache_n":0,"prompt_n":812,"prompt_ms":203.378,"prompt_per_token_ms":0.2504,"prompt_per_second":3992.5,"predicted_n":1534,"predicted_ms":5933.63,"predicted_per_token_ms":3.868,"predicted_per_second":258.5}"#

    private static func responseObject(
        id: String, status: String, output: String, usage: Usage?, incompleteReason: String? = nil, error: String? = nil
    ) -> String {
        let usageJSON =
            usage.map { usage in
                let details = usage.reasoningTokens.map { #"{"reasoning_tokens":\#($0)}"# } ?? "{}"
                return
                    #"{"input_tokens":\#(usage.inputTokens),"input_tokens_details":{"cached_tokens":0},"output_tokens":\#(usage.outputTokens),"output_tokens_details":\#(details),"total_tokens":\#(usage.inputTokens + usage.outputTokens)}"#
            } ?? "null"
        let incomplete = incompleteReason.map { #"{"reason":\#(jsonString($0))}"# } ?? "null"
        return
            #"{"id":"\#(id)","object":"response","created_at":1756491970,"status":"\#(status)","background":false,"error":\#(error ?? "null"),"incomplete_details":\#(incomplete),"instructions":"You write lesson plans for teachers.","max_output_tokens":4000,"max_tool_calls":null,"model":"gpt-5-mini-2025-08-07","output":[\#(output)],"parallel_tool_calls":true,"previous_response_id":null,"prompt_cache_key":null,"reasoning":{"effort":"low","summary":"auto"},"safety_identifier":null,"service_tier":"auto","store":false,"temperature":1.0,"text":{"format":{"type":"text"},"verbosity":"medium"},"tool_choice":"auto","tools":[],"top_logprobs":0,"top_p":1.0,"truncation":"disabled","usage":\#(usageJSON),"user":null,"metadata":{}}"#
    }

    /// OpenAI pads events with a random `obfuscation` string; a fixed one keeps fixtures stable.
    private static func obfuscation(_ seed: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return String((0..<(4 + seed % 9)).map { alphabet[($0 * 7 + seed * 13) % alphabet.count] })
    }

    // MARK: - Chat Completions API

    /// Which server a Chat Completions fixture imitates.
    package enum ChatStyle: Sendable, Equatable {
        /// Usage in a separate last chunk with empty `choices` (`stream_options.include_usage`).
        case openAI
        /// Keys in llama-server's order, `reasoning_content` deltas, usage and `timings` on the
        /// finishing chunk.
        case llamaServer
    }

    /// A Chat Completions stream whose `content` deltas spell `text`, ending with `[DONE]`.
    package static func chatCompletionsStream(
        text: String = sampleText, pieces: [String]? = nil, usage: Usage? = defaultUsage,
        finishReason: String = "stop", style: ChatStyle = .openAI, id: String = "chatcmpl-C9xTq2mZ8pLw1"
    ) -> Data {
        let pieces = pieces ?? Self.pieces(of: text)
        var out = ""
        func chunk(_ choices: String, usage: String = "null") -> String {
            switch style {
            case .openAI:
                #"{"id":"\#(id)","object":"chat.completion.chunk","created":1756491970,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_560af6e559","choices":[\#(choices)],"usage":\#(usage)}"#
            case .llamaServer:
                #"{"choices":[\#(choices)],"created":1756491970,"id":"\#(id)","model":"gpt-oss-20b","system_fingerprint":"b6097-9515c613","object":"chat.completion.chunk"\#(usage == "null" ? "" : #","usage":\#(usage),\#(llamaTimings)"#)}"#
            }
        }
        let usageJSON =
            usage.map {
                #"{"prompt_tokens":\#($0.inputTokens),"completion_tokens":\#($0.outputTokens),"total_tokens":\#($0.inputTokens + $0.outputTokens),"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{\#($0.reasoningTokens.map { #""reasoning_tokens":\#($0),"# } ?? "")"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}"#
            } ?? "null"
        switch style {
        case .openAI:
            out += event(
                nil, data: chunk(#"{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}"#))
            for piece in pieces {
                out += event(nil, data: chunk(#"{"index":0,"delta":{"content":\#(jsonString(piece))},"logprobs":null,"finish_reason":null}"#))
            }
            out += event(nil, data: chunk(#"{"index":0,"delta":{},"logprobs":null,"finish_reason":"\#(finishReason)"}"#))
            if usage != nil {
                out += event(nil, data: chunk("", usage: usageJSON))
            }
        case .llamaServer:
            out += event(nil, data: chunk(#"{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}"#))
            out += event(nil, data: chunk(#"{"finish_reason":null,"index":0,"delta":{"reasoning_content":"We should plan – carefully"}}"#))
            for piece in pieces {
                out += event(nil, data: chunk(#"{"finish_reason":null,"index":0,"delta":{"content":\#(jsonString(piece))}}"#))
            }
            out += event(nil, data: chunk(#"{"finish_reason":"\#(finishReason)","index":0,"delta":{}}"#, usage: usageJSON))
        }
        out += event(nil, data: "[DONE]")
        return Data(out.utf8)
    }
}
