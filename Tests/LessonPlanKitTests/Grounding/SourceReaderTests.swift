import Foundation
import LessonPlanKit
import LessonPlanCore
import TestSupport
import Testing

/// Reading a teacher's file into pages, against real files the tests write; bad input is one sentence.
@Suite struct SourceReaderTests {
    @Test func aPDFIsReadPageByPage() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try await SourceReader().read(try SourceFixtures.threePagePDF(in: folder))
        #expect(source.pages.count == 3)
        #expect(source.paged)
        #expect(source.name == "tides.pdf")
        #expect(source.pages[1].contains("The gravity of the moon pulls the oceans toward it,"))
        #expect(source.pages[2].contains("Neap tides come when the sun and the moon pull at right angles."))
        #expect(!source.pages[0].contains("Neap"))
        #expect(source.sha256.count == 64)
        #expect(source.bytes == (try Data(contentsOf: folder.appending(path: "tides.pdf"))).count)
    }

    @Test func aDocxIsReadThroughPandoc() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try #require(try await SourceFixtures.docx(in: folder), "pandoc is needed to make the docx")
        let source = try await SourceReader().read(url)
        #expect(source.pages.count == 1)
        #expect(!source.paged)
        #expect(source.pages[0].contains(SourceFixtures.docxParagraphs[1]))
    }

    @Test func theDigestIsSHA256() {
        // FIPS 180-4's "abc" example.
        #expect(SourceDocument.digest(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func longTextIsNumberedInParts() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let paragraph = String(repeating: "The moon pulls the sea. ", count: 50)
        let url = folder.appending(path: "long.md")
        try Array(repeating: paragraph, count: 6).joined(separator: "\n\n").write(to: url, atomically: true, encoding: .utf8)
        let source = try await SourceReader().read(url)
        #expect(source.pages.count == 3)
        #expect(source.pages.allSatisfy { $0.count <= SourceReader.unpagedPageCharacters })
    }

    @Test func badInputIsOneSentenceEach() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = SourceReader()
        func failure(_ url: URL) async -> SourceError? {
            do { _ = try await reader.read(url); return nil } catch { return error }
        }
        #expect(await failure(folder.appending(path: "absent.pdf")) == .missing(folder.appending(path: "absent.pdf").path))
        #expect(await failure(folder) == .directory(folder.path))

        let random = folder.appending(path: "random.pdf")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: random)
        #expect(await failure(random) == .notWhatItSays(random.path, kind: "PDF"))

        let fakeDocx = folder.appending(path: "fake.docx")
        try Data("just text".utf8).write(to: fakeDocx)
        #expect(await failure(fakeDocx) == .notWhatItSays(fakeDocx.path, kind: "docx"))

        let encrypted = folder.appending(path: "locked.pdf")
        try SourceFixtures.pdf(pages: SourceFixtures.pages, encrypted: true).write(to: encrypted)
        #expect(await failure(encrypted) == .encrypted(encrypted.path))

        let scan = folder.appending(path: "scan.pdf")
        try SourceFixtures.pdf(pages: [[], []]).write(to: scan)
        #expect(await failure(scan) == .noTextLayer(scan.path))

        let huge = folder.appending(path: "huge.txt")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(SourceReader.largestFile + 1))
        try handle.close()
        #expect(await failure(huge) == .tooLarge(huge.path, bytes: SourceReader.largestFile + 1))

        let binary = folder.appending(path: "image.png")
        try Data([0x89, 0x50]).write(to: binary)
        #expect(await failure(binary) == .unsupported(binary.path))

        for error in [SourceError.missing("x"), .encrypted("x"), .noTextLayer("x"), .tooLarge("x", bytes: 1)] {
            let sentence = try #require(error.errorDescription)
            #expect(sentence.hasSuffix(".") && sentence.filter { $0 == "\n" }.isEmpty)
        }
    }
}
