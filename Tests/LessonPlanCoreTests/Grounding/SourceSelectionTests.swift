import Foundation
import LessonPlanCore
import Testing

/// Which pages of the sources go with a request, and how they are marked.
@Suite struct SourceSelectionTests {
    @Test func aShortSourceGoesWholeWithItsPagesMarked() {
        let source = SourceDocument(
            name: "tides.pdf", path: "/x", bytes: 1, sha256: "", pages: ["Page one text.", "Page two text."], paged: true)
        let selection = SourceSelection(sources: [source], query: "tides")
        #expect(selection.pages == [[1, 2]])
        #expect(selection.text == "[tides.pdf p. 1]\nPage one text.\n\n[tides.pdf p. 2]\nPage two text.")
        #expect(selection.cuts.isEmpty)
    }

    @Test func aLongSourceIsCutToThePagesNearestTheTopicWithinTheBudget() {
        let filler = String(repeating: "Volcanoes erupt with molten rock. ", count: 30)
        var pages = Array(repeating: filler, count: 300)
        pages[41] = "Tides rise because the moon pulls the oceans. " + filler
        pages[199] = "Spring tides and neap tides follow the moon's phases. " + filler
        let book = SourceDocument(name: "book.pdf", path: "/x", bytes: 1, sha256: "", pages: pages, paged: true)
        let selection = SourceSelection(sources: [book], query: "tides of the moon /generate", budget: 3 * (filler.count + 60))
        #expect(selection.pages[0].contains(42))
        #expect(selection.pages[0].contains(200))
        #expect(selection.pages[0].count == 3)
        #expect(selection.text.count <= 3 * (filler.count + 60) + 100)
        #expect(selection.cuts == ["book.pdf: sent p. 1, 42, 200 of 300, the pages nearest the topic"])
    }
}
