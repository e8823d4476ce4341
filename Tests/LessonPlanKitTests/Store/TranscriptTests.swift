import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel
import LessonPlanStore
import TestSupport
import Testing

@Suite struct TranscriptTests {
    @Test func everyRecordRoundTrips() throws {
        let coder = TranscriptCoder()
        let records: [TranscriptRecord] = [
            .header(try TranscriptFixtures.header()),
            .turnStarted(try TranscriptFixtures.started(1, command: "/regrade 3–5 “quoted” \\ 📝", base: nil)),
            .turnEnded(TranscriptFixtures.ended(1, output: "Plan\nline 2 – en dash", version: 1)),
            .undo(UndoRecord(at: TranscriptFixtures.t0, from: 2, to: 1)),
            .named(NameRecord(at: TranscriptFixtures.t0, name: "photo week")),
        ]
        for record in records {
            let line = coder.encode(record)
            #expect(!line.contains(UInt8(ascii: "\n")))
            let text = String(decoding: line, as: UTF8.self)
            #expect(text.hasPrefix("{\"type\":\"\(record.type)\",\"v\":1,"))
            #expect(try coder.decode(line) == record)
        }
        let ended = String(decoding: coder.encode(.turnEnded(TranscriptFixtures.ended(1, output: "x", version: 1))), as: UTF8.self)
        #expect(ended.contains("\"response_id\":\"resp_1\"") && ended.contains("\"input_tokens\":10"))
        #expect(ended.contains("\"at\":\"2026-"))
    }

    /// Every field of every record type, written as docs/transcript.md shows it: the tag and
    /// version first, then the keys in sorted order, absent optionals left out.
    @Test func linesAreWrittenAsDocumented() throws {
        let coder = TranscriptCoder()
        func line(_ record: TranscriptRecord) -> String { String(decoding: coder.encode(record), as: UTF8.self) }
        let at = #""at":"2026-11-30T00:53:20.125Z""#
        let inputs = #""inputs":{"constraints":"","grade":"6–8","minutes":45,"standards":"","topic":"Photosynthesis"}"#
        var header = try TranscriptFixtures.header()
        #expect(
            line(.header(header))
                == #"{"type":"session","v":1,"base_url":"https://api.openai.com/v1","created":"2026-11-30T00:53:20.125Z","id":"0123456789abcdef",\#(inputs),"model":"gpt-5.2","tool_version":"test"}"#
        )
        header.name = "photo week"
        header.framework = "5e"
        #expect(line(.header(header)).contains(#""base_url":"https://api.openai.com/v1","created":"2026-11-30T00:53:20.125Z","framework":"5e","id""#))
        #expect(line(.header(header)).contains(#""model":"gpt-5.2","name":"photo week","tool_version":"test"}"#))

        var started = try TranscriptFixtures.started(3, command: "/retry", base: 2)
        started.framework = "default"
        started.follows = 2
        started.kind = .materials
        started.retryOf = 1
        started.continues = 1
        #expect(
            line(.turnStarted(started))
                == #"{"type":"turn_started","v":1,\#(at),"base_version":2,"command":"/retry","continues":1,"follows":2,"framework":"default","input":"plan please",\#(inputs),"instructions":"be good","kind":"materials","max_output_tokens":8192,"model":"gpt-5.2","retry_of":1,"template":"shorten","turn":3}"#
        )

        var ended = TranscriptFixtures.ended(3, status: .failed, output: "x", version: nil)
        #expect(
            line(.turnEnded(ended))
                == #"{"type":"turn_ended","v":1,\#(at),"duration_ms":5,"error":"it broke","output":"x","response_id":"resp_3","status":"failed","turn":3,"usage":{"input_tokens":10,"output_tokens":20}}"#
        )
        ended = TranscriptFixtures.ended(3, output: "x", version: 3)
        ended.check = PlanCheckReport(problems: [.pacingTotal(found: 50, expected: 45)], pacedMinutes: 50, lessonMinutes: 45)
        ended.kept = true
        ended.made = Made(.materials, 2)
        ended.streamed = false
        #expect(
            line(.turnEnded(ended))
                == #"{"type":"turn_ended","v":1,\#(at),"check":{"lesson_minutes":45,"paced_minutes":50,"passed":false,"problems":[{"expected":45,"found":50,"kind":"pacing_total"}]},"duration_ms":5,"kept":true,"made":{"kind":"materials","number":2},"output":"x","response_id":"resp_3","status":"completed","streamed":false,"turn":3,"usage":{"input_tokens":10,"output_tokens":20},"version":3}"#
        )
        var quizStarted = try TranscriptFixtures.started(4, command: "/quiz starter 6", base: 3)
        quizStarted.kind = .quiz
        quizStarted.quizKind = .starter
        quizStarted.quizItems = 6
        quizStarted.quizFeedback = true
        quizStarted.rubricLevels = 4
        #expect(
            line(.turnStarted(quizStarted))
                == #"{"type":"turn_started","v":1,\#(at),"base_version":3,"command":"/quiz starter 6","input":"plan please",\#(inputs),"instructions":"be good","kind":"quiz","max_output_tokens":8192,"model":"gpt-5.2","quiz_feedback":true,"quiz_items":6,"quiz_kind":"starter","rubric_levels":4,"template":"shorten","turn":4}"#
        )
        var quizEnded = TranscriptFixtures.ended(4, output: "x", version: nil)
        quizEnded.made = Made(.quiz, 1)
        #expect(
            line(.turnEnded(quizEnded))
                == #"{"type":"turn_ended","v":1,\#(at),"duration_ms":5,"made":{"kind":"quiz","number":1},"output":"x","response_id":"resp_4","status":"completed","turn":4,"usage":{"input_tokens":10,"output_tokens":20}}"#
        )
        // Older transcripts said what a turn made with one key per kind; both readers take it as `made`.
        for (key, kind) in [("materials", TurnKind.materials), ("quiz", .quiz), ("rubric", .rubric), ("review", .review)] {
            let old = Data(
                #"{"type":"turn_ended","v":1,\#(at),"duration_ms":5,"\#(key)":3,"output":"x","status":"completed","turn":4}"#.utf8)
            guard case .turnEnded(let fast) = try #require(coder.decodeFastPath(old)),
                case .turnEnded(let full) = try coder.decodeWithoutFastPath(old)
            else {
                Issue.record("\(key): not read as a turn's end")
                continue
            }
            #expect(fast.made == Made(kind, 3) && full.made == Made(kind, 3), "\(key)")
            #expect(!String(decoding: coder.encode(.turnEnded(full)), as: UTF8.self).contains(#""\#(key)":"#), "rewritten as made")
        }
        #expect(line(.undo(UndoRecord(at: TranscriptFixtures.t0, from: 2, to: 1))) == #"{"type":"undo","v":1,\#(at),"from":2,"to":1}"#)
        #expect(line(.named(NameRecord(at: TranscriptFixtures.t0, name: "w"))) == #"{"type":"name","v":1,\#(at),"name":"w"}"#)
        #expect(
            line(.handEdit(HandEditRecord(at: TranscriptFixtures.t0, command: "/edit", baseVersion: 1, version: 2, text: "p")))
                == #"{"type":"hand_edit","v":1,\#(at),"base_version":1,"command":"/edit","text":"p","version":2}"#)
    }

    @Test func writerAppendsAndReaderFoldsState() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let url = home.directory.transcript(id: "0123456789abcdef")
        do {
            let writer = try TranscriptWriter(url: url)
            try writer.append(.header(try TranscriptFixtures.header()))
            try writer.append(.turnStarted(try TranscriptFixtures.started(1, command: "/generate", base: nil)))
            try writer.append(.turnEnded(TranscriptFixtures.ended(1, output: "v1 text", version: 1)))
            try writer.append(.turnStarted(try TranscriptFixtures.started(2, command: "/shorten", base: 1, minutes: 30)))
            try writer.append(.turnEnded(TranscriptFixtures.ended(2, output: "v2 text", version: 2)))
            try writer.append(.turnStarted(try TranscriptFixtures.started(3, command: "/regrade 3–5", base: 2)))
            try writer.append(.turnEnded(TranscriptFixtures.ended(3, status: .cancelled, output: "partial", version: nil)))
            try writer.append(.undo(UndoRecord(at: TranscriptFixtures.t0, from: 2, to: 1)))
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let loaded = try TranscriptReader.read(url)
        #expect(loaded.warnings.isEmpty)
        let state = try #require(TranscriptReader.state(of: loaded))
        #expect(state.versions.map(\.text) == ["v1 text", "v2 text"])
        #expect(state.currentVersion == 1)
        #expect(state.current?.text == "v1 text")
        #expect(state.versions[1].parent == 1 && state.versions[1].inputs.minutes == 30)
        #expect(state.turns.count == 3 && state.turns[2].ended?.status == .cancelled)
        #expect(state.nextTurnNumber == 4)
        #expect(state.undoTarget == nil)
    }

    @Test func tornLastLineIsReportedOnceAndTheNextAppendStartsClean() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let url = home.directory.transcript(id: "0123456789abcdef")
        do {
            let writer = try TranscriptWriter(url: url)
            try writer.append(.header(try TranscriptFixtures.header()))
            try writer.append(.turnStarted(try TranscriptFixtures.started(1, command: "/generate", base: nil)))
            try writer.append(.turnEnded(TranscriptFixtures.ended(1, output: "v1 text", version: 1)))
        }
        // A kill -9 in the middle of writing the next line.
        let torn = String(
            decoding: TranscriptCoder().encode(.turnStarted(try TranscriptFixtures.started(2, command: "/shorten", base: 1))), as: UTF8.self)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(torn.prefix(40).utf8))
        try handle.close()

        let loaded = try TranscriptReader.read(url)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.contains("cut off") == true)
        #expect(TranscriptReader.state(of: loaded)?.current?.text == "v1 text")

        do {
            let writer = try TranscriptWriter(url: url)
            try writer.append(.undo(UndoRecord(at: TranscriptFixtures.t0, from: 1, to: 1)))
        }
        let again = try TranscriptReader.read(url)
        #expect(again.records.count == 4)
        #expect(again.warnings.count == 1 && again.warnings[0].contains("Line 4"))
    }

    @Test func unknownTypesAreSkippedNewerVersionsAndGarbageRefused() throws {
        let header = String(decoding: TranscriptCoder().encode(.header(try TranscriptFixtures.header())), as: UTF8.self)
        let unknown = header + "\n{\"type\":\"sticker\",\"v\":1,\"emoji\":\"🦕\"}\n"
        let loaded = try TranscriptReader.parse(Data(unknown.utf8), path: "x.jsonl")
        #expect(loaded.records.count == 1)
        #expect(loaded.warnings == ["Line 2 has type “sticker”, which this lessonplan does not know; skipped."])

        let newer = header + "\n{\"type\":\"undo\",\"v\":2,\"at\":\"2026-11-29T00:00:00Z\",\"from\":2,\"to\":1}\n"
        #expect(throws: StoreError.newerFormat(path: "x.jsonl", version: 2)) {
            try TranscriptReader.parse(Data(newer.utf8), path: "x.jsonl")
        }
        for garbage in ["", "hello\nworld\n", "{\"type\":\"turn_ended\",\"v\":1}\n", "\u{0}\u{1}\u{2}", "[1,2,3]\n"] {
            #expect(throws: StoreError.notATranscript(path: "g")) { try TranscriptReader.parse(Data(garbage.utf8), path: "g") }
        }
    }

    @Test func aSecondWriterIsRefused() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let url = home.directory.transcript(id: "0123456789abcdef")
        let first = try TranscriptWriter(url: url)
        try first.append(.header(try TranscriptFixtures.header()))
        #expect(throws: StoreError.locked(id: "0123456789abcdef")) { try TranscriptWriter(url: url) }
        withExtendedLifetime(first) {}
    }

    @Test func storeLocatesListsAndRemoves() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let store = home.store
        for (id, name) in [("aaaa111100000000", "fractions"), ("aaaa222200000000", nil), ("bbbb333300000000", nil)] {
            let writer = try TranscriptWriter(url: home.directory.transcript(id: id))
            var header = try TranscriptFixtures.header(id: id)
            header.name = name
            try writer.append(.header(header))
            try writer.append(.turnStarted(try TranscriptFixtures.started(1, command: "/generate", base: nil)))
            try writer.append(.turnEnded(TranscriptFixtures.ended(1, output: "text", version: 1)))
        }
        #expect(try store.locate("bbbb") == home.directory.transcript(id: "bbbb333300000000"))
        #expect(try store.locate("fractions") == home.directory.transcript(id: "aaaa111100000000"))
        #expect(try store.locate("aaaa222200000000") == home.directory.transcript(id: "aaaa222200000000"))
        do {
            _ = try store.locate("aaaa")
            Issue.record("ambiguous prefix accepted")
        } catch {
            guard case .ambiguous(_, let matches) = error else { throw error }
            #expect(matches.count == 2)
        }
        #expect(throws: StoreError.self) { try store.locate("zzzz") }

        let summaries = store.list()
        #expect(summaries.count == 3)
        #expect(summaries.first { $0.id == "aaaa111100000000" }?.versions == 1)
        #expect(summaries.first { $0.id == "aaaa111100000000" }?.lastCommand == "/generate")
        #expect(throws: StoreError.self) { try store.ensureNameFree("fractions", except: "bbbb333300000000") }

        try store.remove(id: "bbbb333300000000")
        #expect(store.list().count == 2)
    }

    @Test func namesAreChecked() throws {
        #expect(try SessionStore.validName(" Photo week 3 ") == "Photo week 3")
        for bad in ["", "-rf", "../etc", "a/b", String(repeating: "x", count: 61), "x.jsonl"] {
            #expect(throws: StoreError.self) { try SessionStore.validName(bad) }
        }
    }

    @Test func dataDirectoryFollowsTheEnvironment() {
        #expect(DataDirectory.resolve(environment: ["LESSONPLAN_HOME": "/a", "XDG_DATA_HOME": "/b", "HOME": "/c"]).root.path == "/a")
        #expect(DataDirectory.resolve(environment: ["XDG_DATA_HOME": "/b", "HOME": "/c"]).root.path == "/b/lessonplan")
        #expect(DataDirectory.resolve(environment: ["HOME": "/c"]).root.path == "/c/.local/share/lessonplan")
    }
}
