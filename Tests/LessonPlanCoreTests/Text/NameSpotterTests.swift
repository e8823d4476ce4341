import Foundation
import Testing

@testable import LessonPlanCore

/// The check that notices a student's first name in a teacher's request before anything is sent: it must
/// catch "Jonah" and "Maria and Dev" yet stay quiet on topics ("Rosa Parks", "Newton's laws", "May flowers").
@Suite struct NameSpotterTests {
    let spotter = NameSpotter.builtIn

    /// A spotter whose list holds names that the built-in list leaves out (Lincoln, Newton, Rosa's neighbours),
    /// so the phrase rules are tested on their own and not only through the list.
    let wide = NameSpotter(
        names: """
            # a test list
            Jonah
            Lincoln
            Newton
            Rosa
            Martin
            Luther
            Jackson
            Leonardo
            Joan
            Anne
            Mary
            Priya

            Louis
            Arthur
            José
            """)

    // MARK: - The built-in list

    @Test func theBuiltInListLoadsAndLeavesOutWordsAndPlaces() throws {
        for name in ["Jonah", "Priya", "Mateo", "Maria", "Dev", "Aarav", "Jamal", "Wei", "Mohammed", "Muhammad", "Aaliyah", "Ximena"] {
            #expect(spotter.lists(name), "\(name) is a common first name")
        }
        for word in [
            "Will", "Grace", "May", "Jordan", "Georgia", "Paris", "Britain", "Rose", "Mark", "June", "Bill", "Hope", "Art", "Summer",
            "Newton", "Lincoln", "Washington", "April", "Monday", "The",
        ] {
            #expect(!spotter.lists(word), "\(word) is an ordinary word, a place or a topic")
        }
        let text = try #require(EmbeddedPrompts.files["first-names.txt"])
        let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(entries.count > 3000, "a broad list, not a handful")
        #expect(entries == entries.sorted(), "sorted, as scripts/build-names writes it")
        #expect(entries.allSatisfy { NameSpotter.isCapitalised($0) }, "one capitalised name a line")
    }

    @Test func aFolderCopyOfTheListReplacesTheBuiltInOne() {
        let library = PromptLibrary(location: "/tmp/prompts", files: ["first-names.txt": "# mine\nZebulon\n"])
        #expect(library.nameSpotter.names(in: "Pair Zebulon with Jonah.") == ["Zebulon"])
        #expect(PromptLibrary.builtIn.nameSpotter.names(in: "Pair Zebulon with Jonah.") == ["Jonah"])
    }

    // MARK: - What counts

    @Test func aStudentsNameInARequestCounts() {
        #expect(spotter.names(in: "make the warm-up easier for Jonah") == ["Jonah"])
        #expect(spotter.names(in: "/differentiate so Jonah gets sentence frames") == ["Jonah"])
        #expect(spotter.names(in: "Maria and Dev need sentence frames") == ["Maria", "Dev"])
        #expect(spotter.names(in: "pair Priya with Mateo") == ["Priya", "Mateo"])
        #expect(spotter.names(in: "Put Maria, Dev, and Priya in one group.") == ["Maria", "Dev", "Priya"])
    }

    @Test func aNameThatOpensASentenceStillCounts() {
        #expect(spotter.names(in: "Give Jamal extra time.") == ["Jamal"])
        #expect(spotter.names(in: "Shorten the reading. Jonah reads slowly.") == ["Jonah"])
        #expect(spotter.names(in: "Groups:\n- Priya leads\n- Mateo records") == ["Priya", "Mateo"])
    }

    @Test func possessivesAreStrippedWhicheverApostrophe() {
        #expect(spotter.names(in: "Aarav's group needs a word bank") == ["Aarav"])
        #expect(spotter.names(in: "Aarav’s group needs a word bank") == ["Aarav"])
        #expect(spotter.names(in: "Jonah's and Jonah’s and Jonah") == ["Jonah"], "each name once")
    }

    @Test func namesInsideQuotationMarksCount() {
        #expect(spotter.names(in: #"Add a note: "Jonah may use a calculator.""#) == ["Jonah"])
        #expect(spotter.names(in: "Title it “Priya’s plan”") == ["Priya"])
    }

    @Test func namesComeOnceInOrderOfFirstAppearanceAsWritten() {
        #expect(spotter.names(in: "Mateo, then Priya, then Mateo again, then Jonah") == ["Mateo", "Priya", "Jonah"])
        #expect(wide.names(in: "Pair José with Jonah") == ["José", "Jonah"], "accents kept")
        #expect(wide.names(in: "Pair Jose with Jonah") == ["Jonah"], "an accent is part of the name")
    }

    @Test func hyphenatedNamesCountByTheirFirstPart() {
        #expect(wide.names(in: "Let Mary-Kate read aloud.") == ["Mary-Kate"])
        #expect(wide.names(in: "Mary-kate and mary-Kate") == [], "every part capitalised")
        #expect(spotter.names(in: "Do a warm-up about hunter-gatherers") == [])
    }

    @Test func namesWrittenWithAnInnerCapitalCount() {
        let spotter = NameSpotter(names: "Deshawn\nMckenzie")
        #expect(spotter.names(in: "Seat DeShawn near McKenzie") == ["DeShawn", "McKenzie"])
    }

    @Test func namesOnTheClassListAreIgnored() {
        #expect(spotter.names(in: "Maria and Dev need sentence frames", ignoring: ["maria"]) == ["Dev"])
        #expect(spotter.names(in: "Maria and Dev need sentence frames", ignoring: ["MARIA", "Dev"]) == [])
        #expect(spotter.names(in: "Aarav’s group", ignoring: ["Aarav"]) == [])
    }

    // MARK: - What does not count

    @Test func ordinaryWordsMonthsAndPlacesDoNotCount() {
        for text in [
            "Will the ice melt?", "Grace notes in music", "May flowers", "Mark the verbs", "Jordan River",
            "Georgia", "Paris", "Washington State history", "The Grapes of Wrath", "Newton's laws",
            "Lincoln's Gettysburg Address", "Rosa Parks", "Martin Luther King Jr.", "In June and April, on Monday",
            "Teach the causes of the Civil War. Then summarize.", "Summer reading for Art class",
        ] {
            #expect(spotter.names(in: text) == [], "\(text)")
        }
    }

    @Test func allCapitalsAreNoName() {
        #expect(spotter.names(in: "JONAH NEEDS SENTENCE FRAMES") == [])
        #expect(spotter.names(in: "Jonah IEP goals") == ["Jonah"], "an acronym beside a name is no surname")
    }

    @Test func aFullNameIsAPersonTheClassStudies() {
        #expect(wide.names(in: "Rosa Parks") == [])
        #expect(wide.names(in: "a lesson on Rosa Parks and the bus boycott") == [])
        #expect(wide.names(in: "Martin Luther King Jr. gave a speech") == [])
        #expect(wide.names(in: "Read Lincoln's Gettysburg Address") == [])
        #expect(wide.names(in: "Lincoln's Gettysburg Address") == [])
        #expect(wide.names(in: "Anne Frank wrote a diary") == [], "a name opening a sentence joins the surname")
        #expect(wide.names(in: "a quiz on John F. Kennedy and Samuel L. Jackson") == [])
        #expect(wide.names(in: "Leonardo da Vinci and Joan of Arc") == [])
        #expect(wide.names(in: "Jackson, Mississippi") == ["Jackson"], "a comma ends a name")
    }

    @Test func aNameAfterATitleIsNoStudent() {
        #expect(wide.names(in: "Ask Mr. Jonah about it") == [])
        #expect(wide.names(in: "King Arthur and St. Louis") == [])
        #expect(wide.names(in: "Dr. Martin Luther King") == [])
        #expect(wide.names(in: "Jonah's sister Priya helps") == ["Jonah", "Priya"], "a lower-case noun is no title")
    }

    @Test func aSentenceStartingWordDoesNotMakeAFullName() {
        #expect(wide.names(in: "Tell Jonah to start.") == ["Jonah"])
        #expect(wide.names(in: "Check Priya's Spanish homework") == ["Priya"], "a language is no surname")
        #expect(wide.names(in: "Plan B. Jonah needs frames") == ["Jonah"], "B. is no middle initial here")
        #expect(wide.names(in: "Jonah B. and Priya K. need frames") == ["Jonah", "Priya"], "an initial with no surname after it")
        #expect(wide.names(in: "Read about Mary J. Blige.") == [], "an initial with a surname after it")
        #expect(wide.names(in: "Give Priya Spanish sentence frames") == ["Priya"], "a language is no surname")
    }

    @Test func theRulesDecideNotTheListAlone() {
        // Every listed name here stands alone, so it counts: the cases above are quiet because of the phrase rules.
        #expect(wide.names(in: "Lincoln freed them; Newton's laws; Rosa; Martin") == ["Lincoln", "Newton", "Rosa", "Martin"])
    }

    @Test func aLongTextIsReadQuickly() {
        let paragraph = "Give Jamal extra time. Rosa Parks and Martin Luther King Jr. led; pair Priya with Mateo’s group. "
        let text = String(repeating: paragraph, count: 10_240 / paragraph.count + 1)
        let clock = ContinuousClock()
        var found: [String] = []
        let elapsed = clock.measure { found = spotter.names(in: text) }
        #expect(found == ["Jamal", "Priya", "Mateo"])
        #expect(elapsed < .milliseconds(500), "a 10 KB request took \(elapsed)")
    }
}
