import CoreTestSupport
import LessonPlanCore
import Testing

@Suite struct ReadingLevelTests {
    /// Syllables counted by hand from a dictionary's hyphenation.
    @Test(arguments: [
        ("the", 1), ("cake", 1), ("table", 2), ("wanted", 2), ("jumped", 1), ("photosynthesis", 5),
        ("everyone", 3), ("create", 2), ("beautiful", 3), ("rhythm", 2),
        ("cat", 1), ("a", 1), ("I", 1), ("apple", 2), ("little", 2), ("water", 2), ("happy", 2), ("yellow", 2),
        ("you", 1), ("eye", 1), ("played", 1), ("makes", 1), ("boxes", 2), ("needed", 2), ("hundred", 2),
        ("clothes", 1), ("houses", 2), ("leaves", 1), ("gives", 1), ("release", 2), ("glucose", 2),
        ("describe", 2), ("people", 2), ("because", 2), ("triangle", 3), ("cycle", 2), ("prism", 2),
        ("someone", 2), ("sometimes", 2), ("lovely", 2), ("homework", 2), ("careful", 2), ("statement", 2),
        ("idea", 3), ("area", 3), ("actual", 3), ("usual", 3), ("piano", 3), ("radio", 3), ("material", 4),
        ("nation", 2), ("social", 2), ("million", 2), ("equation", 3), ("question", 2), ("language", 2),
        ("situation", 4), ("evaluate", 4), ("creation", 3), ("creature", 2), ("energy", 3), ("oxygen", 3),
        ("chlorophyll", 3), ("dioxide", 3), ("denominator", 5), ("equivalent", 4), ("sunlight", 2),
        ("don't", 1), ("think-pair-share", 3), ("Photosynthesis,", 5), ("“Table”", 2),
    ])
    func countsSyllables(word: String, count: Int) {
        #expect(ReadingLevel.syllables(in: word) == count)
    }

    @Test func tokensWithoutLettersHaveNoSyllables() {
        #expect(ReadingLevel.syllables(in: "") == 0)
        #expect(ReadingLevel.syllables(in: "45") == 0)
        #expect(ReadingLevel.syllables(in: "—") == 0)
    }

    @Test func gradeOfThreeSentencesMatchesHandArithmetic() throws {
        // Plants(1) need(1) water(2) and(1) light(1)              5 words,  6 syllables
        // The(1) leaf(1) makes(1) food(1) for(1) the(1) plant(1)  7 words,  7 syllables
        // Sunlight(2) gives(1) the(1) plant(1) energy(3)          5 words,  8 syllables
        // 17 words, 3 sentences, 21 syllables:
        // 0.39 × 17/3 + 11.8 × 21/17 − 15.59 = 2.21 + 14.576470… − 15.59 = 1.196470…
        let text = "Plants need water and light. The leaf makes food for the plant. Sunlight gives the plant energy."
        let grade = try #require(ReadingLevel.fleschKincaidGrade(text))
        #expect(abs(grade - 1.196_470_588) < 1e-6)
        #expect(GradeBand.kTo2.expectedReadingLevel.contains(grade))
    }

    @Test func lineBreaksEndSentences() throws {
        // Photosynthesis(5) makes(1) food(1)                      3 words,  7 syllables
        // Why(1) do(1) leaves(1) look(1) green(1)                 5 words,  5 syllables
        // Name(1) one(1) gas(1) that(1) plants(1) release(2)      6 words,  7 syllables (no final period)
        // 0.39 × 14/3 + 11.8 × 19/14 − 15.59 = 1.82 + 16.014285… − 15.59 = 2.244285…
        let text = "1. Photosynthesis makes food.\n- Why do leaves look green?\n\nName one gas that plants release"
        let grade = try #require(ReadingLevel.fleschKincaidGrade(text))
        #expect(abs(grade - 2.244_285_714) < 1e-6)
    }

    @Test func textWithoutWordsHasNoGrade() {
        #expect(ReadingLevel.fleschKincaidGrade("") == nil)
        #expect(ReadingLevel.fleschKincaidGrade("1. 2. 3.\n45 — 60") == nil)
    }

    @Test func harderTextScoresHigher() throws {
        let easy = try #require(ReadingLevel.fleschKincaidGrade("The cat sat. The dog ran. We had fun."))
        let hard = try #require(
            ReadingLevel.fleschKincaidGrade(
                "Photosynthesis converts electromagnetic radiation into chemical energy stored in carbohydrate molecules."
            )
        )
        #expect(easy < 0)
        #expect(hard > 14)
    }

    @Test func studentFacingTextKeepsPracticeCFUAndExitTicketOnly() {
        let plan = """
            Materials
            Leaf diagram handout

            Guided Practice (10 min)
            - 15–22 min: Label the leaf diagram with a partner.

            Differentiation
            Sentence frames for students who need them.

            Check for Understanding
            1. What gas do plants give off?
            Answer: oxygen

            Exit Ticket (5 min)
            **1.** Write the word equation for photosynthesis.
            """
        let expected =
            "Label the leaf diagram with a partner.\nWhat gas do plants give off?\nWrite the word equation for photosynthesis."
        #expect(ReadingLevel.studentFacingText(of: plan, headings: PlanCorpus.headings) == expected)
    }

    @Test func studentFacingTextOfTheCorpusIsGradeable() {
        let text = ReadingLevel.studentFacingText(of: PlanCorpus.goodNumbered, headings: PlanCorpus.headings)
        #expect(text.split(separator: "\n").count == 8)
        #expect(ReadingLevel.fleschKincaidGrade(text) != nil)
    }

    @Test func bandsExpectRisingReadingLevels() {
        #expect(GradeBand.kTo2.expectedReadingLevel == 0...2.5)
        #expect(GradeBand.threeTo5.expectedReadingLevel == 2...5.5)
        #expect(GradeBand.sixTo8.expectedReadingLevel == 6...10)
        #expect(GradeBand.nineTo12.expectedReadingLevel == 8...14)
        let bands = GradeBand.allCases.map(\.expectedReadingLevel)
        #expect(zip(bands, bands.dropFirst()).allSatisfy { $0.lowerBound < $1.lowerBound && $0.upperBound < $1.upperBound })
    }
}

@Suite struct MeasuredSectionsTests {
    @Test func aMissingSectionIsNotAmongThoseMeasured() {
        let plan = "Guided Practice (10 min)\nLabel the leaf.\n\nCheck for Understanding\n1. What gas?\n"
        let document = PlanDocument(parsing: plan, headings: PlanCorpus.headings)
        let sections = ReadingLevel.measuredSections(of: document, studentFacing: ReadingLevel.studentFacingHeadings)
        #expect(sections.present == ["Guided Practice", "Check for Understanding"])
        #expect(sections.missing == ["Independent Practice", "Exit Ticket"])
        #expect(ReadingLevel.studentFacingText(of: document) == "Label the leaf.\nWhat gas?")
    }

    @Test func theWrapUpsPromptsAreNotMeasuredAsCFUQuestions() {
        let document = PlanDocument(parsing: PlanCorpus.wrapUp, headings: PlanCorpus.headings)
        let text = ReadingLevel.studentFacingText(of: document)
        #expect(text.contains("Why do we multiply?") && !text.contains("Find the area of a 2 by 5 rectangle."))
    }
}
