import LessonPlanCore
import Testing

@Suite struct TextTableTests {
    let table = TextTable(
        columns: [
            TextTable.Column("ID"), TextTable.Column("TOPIC", maximum: 20, minimum: 6),
            TextTable.Column("LAST", minimum: 5, droppable: true),
        ],
        rows: [["a1", "Photosynthesis in plants", "/shorten 30"], ["b2", "分数", "/generate"]])

    @Test func aTableThatFitsIsAlignedAndCappedAtItsMaximums() {
        #expect(
            table.render(width: 80) == """
                ID  TOPIC                 LAST
                a1  Photosynthesis in p…  /shorten 30
                b2  分数                  /generate

                """)
    }

    @Test func flexibleColumnsAreClippedBeforeAColumnIsDropped() {
        let clipped = table.render(width: 30)
        #expect(
            clipped == """
                ID  TOPIC          LAST
                a1  Photosynthes…  /shorten 30
                b2  分数           /generate

                """)
        #expect(table.render(width: 18).split(separator: "\n").first == "ID  TOPIC   LAST", "clipped to the minimums")
        let dropped = table.render(width: 14)
        #expect(
            dropped == """
                ID  TOPIC
                a1  Photosynt…
                b2  分数

                """)
    }

    @Test func cellsAreSanitisedAndKeptToOneLine() {
        let hostile = TextTable(columns: [TextTable.Column("NAME")], rows: [["evil\u{1B}[2J\nname"]])
        #expect(hostile.render(width: 80) == "NAME\nevil␛[2J⏎name\n")
    }
}
