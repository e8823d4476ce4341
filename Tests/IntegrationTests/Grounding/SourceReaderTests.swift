import Foundation
import LessonPlanKit
import TestSupport
import Testing

@testable import LessonPlanCore

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
            do {
                _ = try await reader.read(url)
                return nil
            } catch { return error }
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

    /// A docx of some 24 KB holding 9 MB of repeated XML (under the 256 MB cap, a thousandfold its size) is refused
    /// from its zip directory too, before pandoc spends seconds and a gigabyte on it (issue #36).
    @Test func aSmallDenseDocxIsRefusedBeforePandoc() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appending(path: "dense.docx")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
                z.writestr("[Content_Types].xml", "<Types/>")
                z.writestr("word/document.xml", b"<w:p><w:r><w:t>tide</w:t></w:r></w:p>" * 250000)
            """
        let made = try await Python.write(script, to: bomb)
        #expect(made.status == 0, "\(made.output)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int)
        #expect(size < 100_000)
        // A PATH with no pandoc: reaching the tool would be a different error (tool missing), not this one.
        do {
            _ = try await SourceReader(environment: ["PATH": folder.path, "HOME": folder.path]).read(bomb)
            Issue.record("the dense docx was read")
        } catch {
            guard case .expandsTooMuch(_, let bytes) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(bytes > 9_000_000 && bytes < 256 * 1024 * 1024)
        }
    }

    /// A docx of a few hundred kilobytes whose document.xml unpacks to about 300 MB is refused from its zip directory,
    /// before pandoc sees it, with one sentence; nothing of it is read.
    @Test func aDocxZipBombIsRefusedBeforeAnyToolUnpacksIt() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appending(path: "bomb.docx")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
                z.writestr("[Content_Types].xml", "<Types/>")
                with z.open("word/document.xml", "w") as f:
                    chunk = b"<w:p><w:r><w:t>tide</w:t></w:r></w:p>" * 27000
                    for _ in range(300):
                        f.write(chunk)
            """
        let made = try await Python.write(script, to: bomb)
        #expect(made.status == 0, "\(made.output)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int)
        #expect(size < 2_000_000)
        do {
            _ = try await SourceReader().read(bomb)
            Issue.record("the zip bomb was read")
        } catch {
            guard case .expandsTooMuch(let path, let bytes) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == bomb.path && bytes > 290_000_000)
            let sentence = try #require(error.errorDescription)
            #expect(sentence.contains("unpacks to") && sentence.filter { $0 == "\n" }.isEmpty, "\(sentence)")
        }
    }

    /// A link to a 2 GB sparse file is refused from the size of what it leads to, before anything is read.
    @Test func aLinkToAHugeFileIsSizeCheckedFirst() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let huge = folder.appending(path: "huge.bin")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 2 * 1024 * 1024 * 1024)
        try handle.close()
        let link = folder.appending(path: "chapter.txt")
        #expect(symlink(huge.path, link.path) == 0)
        do {
            _ = try await SourceReader().read(link)
            Issue.record("read")
        } catch {
            #expect(error == .tooLarge(link.path, bytes: 2 * 1024 * 1024 * 1024))
        }
    }

    /// A file in a hidden folder of the home (keys, settings) or under a system folder is never read, named
    /// directly or through a link; a FIFO is not a file.
    @Test func keysSettingsAndSystemFilesAreNeverSources() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = folder.appending(path: "home")
        let ssh = home.appending(path: ".ssh")
        try FileManager.default.createDirectory(at: ssh, withIntermediateDirectories: true)
        let key = ssh.appending(path: "id_ed25519")
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----\n".utf8).write(to: key)
        let netrc = home.appending(path: ".netrc")
        try Data("machine api.openai.com password sk-secret\n".utf8).write(to: netrc)
        let reader = SourceReader(environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        func failure(_ url: URL) async -> SourceError? {
            do {
                _ = try await reader.read(url)
                return nil
            } catch { return error }
        }
        let linkToKey = folder.appending(path: "notes.txt")
        #expect(symlink(key.path, linkToKey.path) == 0)
        let linkToShadow = folder.appending(path: "chapter.txt")
        #expect(symlink("/etc/shadow", linkToShadow.path) == 0)
        #expect(await failure(key) == .sensitive(key.path, resolved: nil, place: "~/.ssh, a hidden folder of your home"))
        #expect(await failure(linkToKey) == .sensitive(linkToKey.path, resolved: key.path, place: "~/.ssh, a hidden folder of your home"))
        #expect(await failure(netrc) == .sensitive(netrc.path, resolved: nil, place: "~/.netrc, a hidden file of your home"))
        #expect(await failure(linkToShadow) == .sensitive(linkToShadow.path, resolved: "/etc/shadow", place: "the system folder /etc"))
        let sentence = SourceError.sensitive(linkToKey.path, resolved: key.path, place: "~/.ssh, a hidden folder of your home").errorDescription ?? ""
        #expect(sentence.contains("links to \(key.path), in ~/.ssh") && sentence.contains("nothing of it was read"), "\(sentence)")
        let fifo = folder.appending(path: "pipe.txt")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(await failure(fifo) == .notAFile(fifo.path))
        // An ordinary file in the same home is read.
        let lesson = home.appending(path: "lesson.txt")
        try Data("The tide rises twice a day.".utf8).write(to: lesson)
        #expect(await failure(lesson) == nil)
    }

    /// A home reached through a link (`/home` → `/var/home`) hides its keys no less, and so do root's and
    /// another user's.
    @Test func keysBehindALinkedHomeOrAnotherHomeAreNeverSources() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appending(path: "var-home")
        let ssh = real.appending(path: ".ssh")
        try FileManager.default.createDirectory(at: ssh, withIntermediateDirectories: true)
        let key = ssh.appending(path: "id_ed25519")
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----\n".utf8).write(to: key)
        let linkedHome = folder.appending(path: "home")
        #expect(symlink(real.path, linkedHome.path) == 0)
        let reader = SourceReader(environment: ["HOME": linkedHome.path, "PATH": "/usr/bin:/bin"])
        let named = linkedHome.appending(path: ".ssh/id_ed25519")
        do {
            _ = try await reader.read(named)
            Issue.record("the key was read")
        } catch {
            #expect(error == .sensitive(named.path, resolved: key.path, place: "~/.ssh, a hidden folder of your home"))
        }
        #expect(SourceFile.sensitivePlace(of: "/home/ann/.ssh/id_rsa", home: "/nowhere") == "/home/ann/.ssh, a hidden folder of a home")
        #expect(SourceFile.sensitivePlace(of: "/root/.netrc", home: "/nowhere") == "/root/.netrc, a hidden file of a home")
        #expect(SourceFile.sensitivePlace(of: "/home/ann/lessons/tides.txt", home: "/nowhere") == nil)
    }

    /// A small file that unpacks to a few megabytes of repeated XML is refused too: just under the old 8 MB line
    /// one held pandoc for 50 s and 1.2 GB.
    @Test func aSmallDocxThatUnpacksToMegabytesIsRefused() async throws {
        let folder = try SourceFixtures.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appending(path: "small-bomb.docx")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
                z.writestr("[Content_Types].xml", "<Types/>")
                z.writestr("word/document.xml", b"<w:p><w:r><w:t>tide</w:t></w:r></w:p>" * 210000)
            """
        let made = try await Python.write(script, to: bomb)
        #expect(made.status == 0, "\(made.output)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int)
        #expect(size < 64 * 1024)
        do {
            _ = try await SourceReader().read(bomb)
            Issue.record("the zip bomb was read")
        } catch {
            guard case .expandsTooMuch(_, let bytes) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(bytes > 7_000_000 && bytes < 8 * 1024 * 1024)
        }
    }
}
