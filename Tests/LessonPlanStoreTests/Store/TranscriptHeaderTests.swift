import Foundation
import LessonPlanStore
import StoreTestSupport
import Testing

/// `resume` reads only the first line for the starting model; it must find the same header the
/// full reader does, and nothing where the full reader finds nothing.
@Suite struct TranscriptHeaderTests {
    @Test func theHeaderIsReadFromTheFirstLineAlone() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let url = home.directory.transcript(id: "0123456789abcdef")
        let header = try TranscriptFixtures.header()
        do {
            let writer = try TranscriptWriter(url: url)
            try writer.append(.header(header))
            try writer.append(.turnStarted(try TranscriptFixtures.started(1, command: "/generate", base: nil)))
        }
        #expect(TranscriptReader.header(of: url) == header)
        guard case .header(let full)? = try TranscriptReader.read(url).records.first else {
            Issue.record("no header")
            return
        }
        #expect(full == header)
    }

    @Test func blankLeadingLinesAreSkippedAndNonTranscriptsGiveNothing() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let header = try TranscriptFixtures.header()
        let line = String(decoding: TranscriptCoder().encode(.header(header)), as: UTF8.self)
        let cases: [(String, SessionHeader?)] = [
            ("\n \r\n" + line + "\n", header),
            (line, header),
            ("", nil),
            ("\n\n", nil),
            ("hello\n" + line + "\n", nil),
            (String(decoding: TranscriptCoder().encode(.undo(UndoRecord(at: TranscriptFixtures.t0, from: 2, to: 1))), as: UTF8.self) + "\n", nil),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let url = home.url.appending(path: "case\(index).jsonl")
            try Data(text.utf8).write(to: url)
            #expect(TranscriptReader.header(of: url) == expected, "case \(index)")
        }
        #expect(TranscriptReader.header(of: home.url.appending(path: "missing.jsonl")) == nil)
    }
}
