import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import TestSupport
import Testing

/// The one export table: every subject's formats, the names they answer to, where an export without a file name
/// goes, and the one write path.
@Suite struct ExportTableTests {
    typealias Session = CommandSession

    @Test func eachSubjectListsItsFormatsAndEveryNameChoosesOne() {
        #expect(ExportTable.formats(.plan) == "md|html|json|docx|odt|pptx")
        #expect(ExportTable.formats(.materials) == ExportTable.formats(.plan))
        #expect(ExportTable.formats(.quiz) == LMSFormat.allCases.map(\.rawValue).joined(separator: "|"))
        #expect(ExportTable.formats(.unit) == UnitExport.formats.map(\.rawValue).joined(separator: "|") + "|imscc")
        #expect(ExportTable.names(.unit) == "md, html, docx, odt or imscc")
        for subject in ExportSubject.allCases {
            let words = ExportTable.entries(subject).flatMap { [$0.name] + $0.aliases }
            #expect(Set(words).count == words.count, "\(subject): a name answers for two formats")
            for entry in ExportTable.entries(subject) {
                #expect(ExportTable.entry(subject, entry.name.uppercased())?.name == entry.name)
                for alias in entry.aliases { #expect(ExportTable.entry(subject, alias)?.name == entry.name) }
            }
        }
        #expect(ExportTable.entry(.plan, "pdf") == nil && ExportTable.entry(.unit, "json") == nil && ExportTable.entry(.quiz, "md") == nil)
        // Help and completion read the table.
        #expect(ExportCommand.usage.hasPrefix("/export [materials] md|html|json|docx|odt|pptx [FILE]"))
        #expect(ExportCommand.argumentCompletions == ["md", "html", "json", "docx", "odt", "pptx", "materials", "quiz", "unit"])
    }

    /// Without a file name md and json are printed, html is printed unless it would reach a terminal, and the rest go
    /// to `<topic>-v<N>` and the entry's suffix.
    @Test func anExportWithoutAFileNameFollowsOneRule() async throws {
        let session = try await Session(place: .script)
        defer { session.home.remove() }
        #expect(await session.runner.run("/generate").status == .done)
        #expect(await session.runner.run("/materials").status == .done)
        let state = await session.engine.state
        let stem = "tides-v1"
        func file(_ subject: ExportSubject, _ name: String, terminal: Bool) throws -> String? {
            try #require(ExportTable.entry(subject, name)).defaultFile(state, toTerminal: terminal)
        }
        #expect(try file(.plan, "md", terminal: true) == nil && file(.plan, "json", terminal: true) == nil)
        #expect(try file(.plan, "html", terminal: false) == nil && file(.plan, "html", terminal: true) == stem + ".html")
        #expect(try file(.plan, "docx", terminal: false) == stem + ".docx")
        #expect(try file(.materials, "odt", terminal: false) == stem + "-handouts.odt")
        #expect(try file(.quiz, "gift", terminal: false) == stem + "-quiz.gift")
    }

    /// `/export` writes through the one path: the sentence names what was written, and an existing file is kept.
    @Test func theWritePathWritesOnceAndKeepsWhatIsThere() async throws {
        let session = try await Session(place: .script)
        defer { session.home.remove() }
        #expect(await session.runner.run("/generate").status == .done)
        let url = session.home.url.appending(path: "plan.md")
        #expect(await session.runner.run("/export md \(url.path)").status == .done)
        #expect(session.host.notes.last == "Wrote MD of v1 to \(url.path).")
        let written = try Data(contentsOf: url)
        #expect(await session.runner.run("/export md \(url.path)").status == .failed)
        #expect(session.host.errors.last?.contains("already exists") == true)
        #expect(try Data(contentsOf: url) == written)
        #expect(await session.runner.run("/export md \(url.path) --force").status == .done)
    }
}
