import Foundation
import TestSupport
import Testing

@testable import LessonPlanKit
@testable import LessonPlanStore

#if canImport(Glibc)
    import Glibc
#endif

/// Full disks, damaged lines and hostile files in the data directory, against real files.
@Suite struct StoreReliabilityTests {
    typealias T = TranscriptFixtures

    /// A `write(2)` that fails like a disk filling up: the first `failures` calls write half of
    /// what they are given and then the next call fails with ENOSPC.
    final class FillingDisk: @unchecked Sendable {
        var failures: Int
        private var wroteHalf = false
        init(failures: Int) { self.failures = failures }

        func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            guard failures > 0 else { return Glibc.write(fd, bytes, count) }
            if !wroteHalf, count > 1 {
                wroteHalf = true
                return Glibc.write(fd, bytes, count / 2)
            }
            wroteHalf = false
            failures -= 1
            errno = ENOSPC
            return -1
        }
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    @Test func aFailedAppendIsCutBackKeptAndWrittenWhenSpaceReturns() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let url = home.directory.transcript(id: "0123456789abcdef")
        let disk = FillingDisk(failures: 0)
        let writer = try TranscriptWriter(url: url, opening: .createNew, writeBytes: disk.write)
        try writer.append(.header(try T.header()))
        try writer.append(.turnStarted(try T.started(1, command: "/generate", base: nil)))
        try writer.append(.turnEnded(T.ended(1, output: "v1 text", version: 1)))
        let saved = try Self.bytes(url)

        disk.failures = 3
        let failed = writer.appendOrKeep(.turnStarted(try T.started(2, command: "/shorten", base: 1)))
        guard case .notSaved(_, let reason)? = failed else {
            Issue.record("expected notSaved, got \(String(describing: failed))")
            return
        }
        #expect(reason == String(cString: strerror(ENOSPC)))
        #expect(try Self.bytes(url) == saved, "the half-written line is cut off again")
        #expect(writer.pendingCount == 1)
        #expect(writer.appendOrKeep(.turnEnded(T.ended(2, output: "v2 text", version: 2))) != nil)
        #expect(writer.pendingCount == 2)
        #expect(try Self.bytes(url) == saved)
        // The strict form keeps nothing: a name must not be taken while it is only in memory.
        #expect(throws: StoreError.self) { try writer.append(.named(NameRecord(at: T.t0, name: "x"))) }
        #expect(writer.pendingCount == 2)

        // Space returns: the pending records go first, in order, then the new one.
        #expect(disk.failures == 0)
        #expect(writer.appendOrKeep(.undo(UndoRecord(at: T.t0, from: 2, to: 1))) == nil)
        #expect(writer.pendingCount == 0)
        let loaded = try TranscriptReader.read(url)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.records.map(\.type) == ["session", "turn_started", "turn_ended", "turn_started", "turn_ended", "undo"])
        let state = try #require(TranscriptReader.state(of: loaded))
        #expect(state.versions.map(\.text) == ["v1 text", "v2 text"] && state.currentVersion == 1)
    }

    /// Records appended together are written all or none, as the same lines one by one would be.
    @Test func aBatchAppendIsWholeOrCutBack() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        // The header names the file it is read from: a session's id is its file's name.
        let records: [TranscriptRecord] = [
            .header(try T.header(id: "fedcba9876543210")), .turnStarted(try T.started(1, command: "/generate", base: nil)),
            .turnEnded(T.ended(1, output: "v1 text", version: 1)),
        ]
        let single = home.directory.transcript(id: "0123456789abcdef")
        let oneByOne = try TranscriptWriter(url: single, opening: .createNew)
        for record in records { try oneByOne.append(record) }

        let url = home.directory.transcript(id: "fedcba9876543210")
        let disk = FillingDisk(failures: 1)
        let writer = try TranscriptWriter(url: url, opening: .createNew, writeBytes: disk.write)
        #expect(throws: StoreError.self) { try writer.append(contentsOf: records) }
        #expect(try Self.bytes(url).isEmpty, "the half-written batch is cut off again")
        try writer.append(contentsOf: records)
        #expect(try Self.bytes(url) == Self.bytes(single))
        #expect(try TranscriptReader.read(url).records == records)
    }

    @Test func openingWritesNothingAndATornFileGetsAFreshLine() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let url = home.directory.transcript(id: "0123456789abcdef")
        let header = TranscriptCoder().encode(.header(try T.header()))
        let torn = header + Data("\n{\"type\":\"turn_sta".utf8)
        try torn.write(to: url)
        do {
            let writer = try TranscriptWriter(url: url, opening: .existing)
            #expect(try Self.bytes(url) == Array(torn), "opening alone must not write")
            try writer.append(.turnStarted(try T.started(1, command: "/generate", base: nil)))
        }
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        #expect(text.contains("{\"type\":\"turn_sta\n{\"type\":\"turn_started\""))
        let loaded = try TranscriptReader.read(url)
        #expect(loaded.records.count == 2)
        #expect(loaded.warnings == ["Line 2 of \(url.path) is damaged (not a transcript line); skipped, and the lines after it are read as usual."])
    }

    /// A transcript of five versions written by the tool, then one byte changed in a given line.
    func damaged(line: Int, change: (inout [UInt8], Range<Int>) -> Void) throws -> (TemporaryHome, URL) {
        let home = try TemporaryHome()
        let url = home.directory.transcript(id: "0123456789abcdef")
        do {
            let writer = try TranscriptWriter(url: url)
            var header = try T.header()
            header.name = "photo week"
            try writer.append(.header(header))
            for turn in 1...3 {
                try writer.append(.turnStarted(try T.started(turn, command: "/step \(turn)", base: turn == 1 ? nil : turn - 1)))
                try writer.append(.turnEnded(T.ended(turn, output: "plan \(turn)", version: turn)))
            }
        }
        var bytes = try Self.bytes(url)
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == 0x0A { starts.append(index + 1) }
        change(&bytes, starts[line - 1]..<(starts[line] - 1))
        try Data(bytes).write(to: url)
        return (home, url)
    }

    @Test func oneDamagedLineHidesNothingAfterIt() throws {
        // Line 3 is the turn_ended that created v1: a quote becomes a letter (bad JSON).
        let (home, url) = try damaged(line: 3) { bytes, line in bytes[line.lowerBound + 1] = UInt8(ascii: "X") }
        defer { home.remove() }
        let loaded = try TranscriptReader.read(url)
        #expect(loaded.damagedLines == [3] && loaded.isDamaged)
        #expect(loaded.warnings.count == 1 && loaded.warnings[0].hasPrefix("Line 3 of"))
        let state = try #require(TranscriptReader.state(of: loaded))
        #expect(state.versions.map(\.number) == [2, 3])
        #expect(state.currentVersion == 3 && state.current?.text == "plan 3")
        // v2 was made from v1, whose line is lost: still shown, and marked.
        #expect(state.version(2)?.parentLost == true && state.version(3)?.parentLost == false)
        #expect(state.nextNumber(of: .plan) == 4)
        let summary = try #require(home.store.summary(id: "0123456789abcdef"))
        #expect(summary.versions == 2 && summary.damaged == true)
    }

    @Test func aBadUTF8ByteOrALostStartStillShowsTheVersion() throws {
        // Line 4 starts turn 2: an invalid UTF-8 byte inside its command.
        let (home, url) = try damaged(line: 4) { bytes, line in
            let at = Self.find(Array("/step 2".utf8), in: bytes, within: line) ?? line.lowerBound
            bytes[at + 1] = 0xFF
        }
        defer { home.remove() }
        let loaded = try TranscriptReader.read(url)
        #expect(loaded.damagedLines == [4])
        let state = try #require(TranscriptReader.state(of: loaded))
        #expect(state.versions.map(\.number) == [1, 2, 3])
        let v2 = try #require(state.version(2))
        #expect(v2.startLost && v2.command == SessionState.lostCommand && v2.text == "plan 2")
        #expect(state.turns.map(\.started.turn) == [1, 2, 3])
    }

    @Test func aDamagedHeaderStillListsTheSessionMarkedDamaged() throws {
        let (home, url) = try damaged(line: 1) { bytes, line in bytes[line.lowerBound + 3] = UInt8(ascii: "X") }
        defer { home.remove() }
        let loaded = try TranscriptReader.read(url)
        #expect(loaded.headerRebuilt && loaded.isDamaged)
        #expect(loaded.warnings.first?.hasPrefix("Line 1 (the session line) of") == true)
        let state = try #require(TranscriptReader.state(of: loaded))
        #expect(state.header.id == "0123456789abcdef" && state.header.inputs.topic == "Photosynthesis")
        #expect(state.versions.count == 3)
        let list = try home.store.listAll()
        #expect(list.summaries.map(\.id) == ["0123456789abcdef"] && list.summaries[0].damaged == true)
        #expect(list.unreadable.isEmpty)
    }

    @Test func namesAndTopicsAreCheckedAsWhenTyped() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let url = home.directory.transcript(id: "0123456789abcdef")
        do {
            let writer = try TranscriptWriter(url: url)
            try writer.append(.header(try T.header()))
            try writer.append(.named(NameRecord(at: T.t0, name: String(repeating: "n", count: 1_000_000))))
            var started = try T.started(1, command: "/generate", base: nil)
            started.inputs.topic = "\u{1B}]52;c;" + String(repeating: "t", count: 300)
            try writer.append(.turnStarted(started))
        }
        let loaded = try TranscriptReader.read(url)
        #expect(loaded.damagedLines == [2, 3])
        // Warnings name the line, never quote it.
        #expect(loaded.warnings.allSatisfy { $0.count < 300 })
        let state = try #require(TranscriptReader.state(of: loaded))
        #expect(state.name == nil && state.turns.isEmpty)
    }

    @Test func unreadableAndNewerFilesAreListedWithAReason() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let sessions = home.directory.sessions
        let header = String(decoding: TranscriptCoder().encode(.header(try T.header(id: "1111111111111111"))), as: UTF8.self)
        try (header.replacingOccurrences(of: "\"v\":1", with: "\"v\":9") + "\n").write(
            to: sessions.appending(path: "1111111111111111.jsonl"), atomically: true, encoding: .utf8)
        try "just notes\n".write(to: sessions.appending(path: "notes.jsonl"), atomically: true, encoding: .utf8)
        #expect(mkfifo(sessions.appending(path: "pipe.jsonl").path, 0o600) == 0)
        #expect(symlink("/etc/passwd", sessions.appending(path: "link.jsonl").path) == 0)
        let list = try home.store.listAll()
        #expect(list.summaries.isEmpty)
        #expect(list.unreadable.map(\.file) == ["1111111111111111.jsonl", "link.jsonl", "notes.jsonl", "pipe.jsonl"])
        #expect(
            list.unreadable.map(\.reason) == [
                "was written by a newer lessonplan (transcript format 9); update lessonplan to open it",
                "is a symbolic link", "has no line lessonplan can read as a transcript", "is a FIFO (named pipe), not a file",
            ])
    }

    /// `sessions` while another process creates a session: its file, empty or with half its first line, is
    /// skipped quietly while that process holds it; left half written, it is listed as unreadable.
    @Test func aSessionBeingCreatedIsNotListedAsUnreadable() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let sessions = home.directory.sessions
        let url = sessions.appending(path: "2222222222222222.jsonl")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        #expect(try home.store.listAll().unreadable.isEmpty, "an empty file just created")
        let header = String(decoding: TranscriptCoder().encode(.header(try T.header(id: "2222222222222222"))), as: UTF8.self)
        try Data(header.utf8.prefix(40)).write(to: url)
        // The creating process holds the transcript's lock as the writer does: here, another open file of it.
        let writer = open(url.path, O_RDWR)
        #expect(writer >= 0 && flock(writer, LOCK_EX | LOCK_NB) == 0)
        #expect(try home.store.listAll().unreadable.isEmpty, "half a session line, still being written")
        close(writer)
        #expect(try home.store.listAll().unreadable.map(\.file) == ["2222222222222222.jsonl"], "left half written")
    }

    @Test func linksFIFOsAndDevicesAreRefusedAtOnce() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let sessions = home.directory.sessions
        // A dangling link: its target must never be created.
        let target = home.url.appending(path: "elsewhere.jsonl")
        let link = sessions.appending(path: "aaaaaaaaaaaaaaaa.jsonl")
        #expect(symlink(target.path, link.path) == 0)
        for opening in [TranscriptWriter.Opening.createNew, .createIfMissing, .existing] {
            #expect(throws: StoreError.self) { try TranscriptWriter(url: link, opening: opening) }
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
        // A FIFO with nobody at the other end: refused, not waited on.
        let fifo = sessions.appending(path: "bbbbbbbbbbbbbbbb.jsonl")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: StoreError.unsafeFile(path: fifo.path, reason: "is a FIFO (named pipe), not a file")) {
            try TranscriptReader.read(fifo)
        }
        #expect(throws: StoreError.self) { try TranscriptWriter(url: fifo, opening: .existing) }
        #expect(TranscriptReader.header(of: fifo) == nil)
        #expect(throws: StoreError.unsafeFile(path: "/dev/zero", reason: "is a device, not a file")) {
            try TranscriptReader.read(URL(fileURLWithPath: "/dev/zero"))
        }
    }

    @Test func aDirectoryOthersCanWriteIsRefusedWithTheFix() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        #expect(chmod(home.directory.sessions.path, 0o770) == 0)
        let expected = StoreError.unsafeDirectory(
            path: home.directory.sessions.path,
            reason: "can be written by other users (mode 770), who could change your sessions",
            fix: "chmod 700 \(home.directory.sessions.path)")
        #expect(throws: expected) { try home.directory.prepare() }
        #expect(throws: expected) { try home.store.listAll() }
        #expect(expected.errorDescription?.contains("run `chmod 700 ") == true)
        #expect(chmod(home.directory.sessions.path, 0o700) == 0)
        #expect(chmod(home.url.path, 0o707) == 0)
        #expect(throws: StoreError.self) { try home.directory.prepare() }
        #expect(chmod(home.url.path, 0o700) == 0)
        try home.directory.prepare()
        // sessions/ replaced by a link is refused too.
        try FileManager.default.removeItem(at: home.directory.sessions)
        #expect(symlink(home.url.path, home.directory.sessions.path) == 0)
        #expect(throws: StoreError.self) { try home.directory.prepare() }
    }

    @Test func privateFilesAreOwnerOnlyAndNeverHalfWritten() throws {
        let home = try TemporaryHome()
        defer { home.remove() }
        let url = home.url.appending(path: "plan.md")
        try PrivateFiles.write(Data("one".utf8), to: url, replace: false)
        #expect(throws: StoreError.exists(path: url.path)) { try PrivateFiles.write(Data("two".utf8), to: url, replace: false) }
        #expect(chmod(url.path, 0o644) == 0)
        try PrivateFiles.write(Data("two".utf8), to: url, replace: true)
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == "two")
        var info = stat()
        #expect(stat(url.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.url.path).sorted() == ["plan.md", "sessions"])
        // Never through a link.
        let link = home.url.appending(path: "link.md")
        #expect(symlink(home.url.appending(path: "target.md").path, link.path) == 0)
        #expect(throws: StoreError.self) { try PrivateFiles.write(Data("x".utf8), to: link, replace: false) }
        #expect(!FileManager.default.fileExists(atPath: home.url.appending(path: "target.md").path))
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8], within range: Range<Int>) -> Int? {
        guard needle.count <= range.count else { return nil }
        for start in range.lowerBound...(range.upperBound - needle.count) where Array(bytes[start..<start + needle.count]) == needle {
            return start
        }
        return nil
    }
}
