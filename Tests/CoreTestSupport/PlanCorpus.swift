import LessonPlanCore

/// Hand-written plans in the styles models produce, each with the report the checker must give.
/// Kept as string literals because the target has no resources.
package enum PlanCorpus {
    /// The ten default headings, as in prompts/headings.txt.
    package static let headings = [
        "Learning Objective", "Materials", "Warm-Up (5 min)", "Direct Instruction", "Guided Practice",
        "Independent Practice", "Differentiation", "Check for Understanding", "Exit Ticket",
        "Homework / Extension (optional)",
    ]

    /// The 5E framework, which has no warm-up, CFU or exit ticket headings of its own.
    package static let fiveE = ["Engage", "Explore", "Explain", "Elaborate", "Evaluate"]

    /// A plan, the lesson length it was asked for, and the report it must get.
    package struct Case: Sendable, CustomStringConvertible {
        package let name: String
        package let plan: String
        package let lessonMinutes: Int
        package let expected: PlanCheckReport
        package var description: String { name }

        package init(_ name: String, _ plan: String, minutes: Int = 45, problems: [PlanProblem] = [], paced: Int?) {
            self.name = name
            self.plan = plan
            self.lessonMinutes = minutes
            self.expected = PlanCheckReport(problems: problems, pacedMinutes: paced, lessonMinutes: minutes)
        }
    }

    package static let good: [Case] = [
        Case("numbered 1) with (N min) headings", goodNumbered, paced: 45),
        Case("markdown ## with minute ranges", goodMarkdownRanges, minutes: 60, paced: 60),
        Case("bold with dashed times and durations", goodBold, paced: 45),
    ]

    package static let broken: [Case] = [
        Case("missing Materials", missingMaterials, problems: [.missingHeading("Materials")], paced: 45),
        Case("Guided Practice twice", duplicateGuided, problems: [.duplicateHeading("Guided Practice")], paced: 45),
        Case("Exit Ticket before CFU", exitBeforeCFU, problems: [.outOfOrder("Exit Ticket")], paced: 45),
        Case("pacing 50 in 45", pacingFifty, problems: [.pacingTotal(found: 50, expected: 45)], paced: 50),
        Case("warm-up of 10 min", warmUpTen, problems: [.warmUpMinutes(found: 10, expected: 5)], paced: 45),
        Case("two CFU questions", twoCFU, problems: [.tooFewCFUQuestions(found: 2, minimum: 3)], paced: 45),
        Case("exit ticket of 2", exitTicketTwo, problems: [.exitTicketPrompts(found: 2, expected: 3)], paced: 45),
        Case("exit ticket of 4", exitTicketFour, problems: [.exitTicketPrompts(found: 4, expected: 3)], paced: 45),
        Case("code fence", fenced, problems: [.codeFence], paced: 45),
        Case("no times at all", untimed, problems: [.noPacing], paced: nil),
    ]

    // MARK: - Good plans

    package static let goodNumbered = """
        Lesson Plan: How Plants Make Food
        Grade band: 6–8 | 45 minutes

        1) Learning Objective
        Students will explain how plants use light, water, and carbon dioxide to make glucose and oxygen.

        2) Materials
        - Leaf diagram handout
        - Colored pencils
        - Exit ticket slips

        3) Warm-Up (5 min)
        Ask students: What did you eat today, and where did its energy come from? Partners share for one minute.

        4) Direct Instruction (10 min)
        - Introduce the word photosynthesis and break it into parts.
        - Model the equation: carbon dioxide + water + light → glucose + oxygen.
        - Show where chloroplasts are in the leaf diagram.

        5) Guided Practice (10 min)
        In pairs, students label the inputs and outputs on the leaf diagram. Circulate and ask each pair to explain one arrow.

        6) Independent Practice (10 min)
        Students write a short paragraph explaining why a plant kept in a dark closet stops growing.

        7) Differentiation
        - Support: sentence frames ("Plants need ___ to make ___.").
        - Extension: compare photosynthesis with cellular respiration.

        8) Check for Understanding (5 min)
        1. What three things does a plant need for photosynthesis?
        2. Where in the leaf does photosynthesis happen?
        3. What gas do plants give off?

        9) Exit Ticket (5 min)
        1. Write the word equation for photosynthesis.
        2. Explain why leaves are usually green.
        3. Name one way animals depend on photosynthesis.

        10) Homework / Extension (optional)
        Grow a bean seedling in a sunny spot and one in a dark cupboard; record its height every day for a week.
        """

    package static let goodMarkdownRanges = """
        # Fractions on a Number Line (Grade 3–5, 60 minutes)

        ## Learning Objective
        I can place fractions with denominators 2, 3, 4 and 8 on a number line.

        ## Materials
        - Number line strips (0 to 1)
        - Fraction cards
        - Mini whiteboards

        ## Warm-Up
        0–5 min: Students fold a paper strip in half and in fourths and label the folds.

        ## Direct Instruction
        5–20 min
        - Model splitting 0 to 1 into equal parts on the board.
        - Think aloud: "The denominator tells how many equal jumps."
        - Place 3/4 and ask why it sits closer to 1 than to 0.

        ## Guided Practice
        - 20–30 min: Partners place fraction cards on a class number line.
        - 30–35 min: Whole-class check; fix any misplaced cards together.

        ## Independent Practice
        35–47 min: Students complete six number lines on the practice page.

        ## Differentiation
        - Students who need support use strips already split into halves.
        - Early finishers place fractions greater than 1.

        ## Check for Understanding
        (minutes 47–52)
        - Which is closer to 0, 1/8 or 1/2?
        - How many equal parts are between 0 and 1 when the denominator is 3?
        - Where would 4/4 go on the number line?
        - Show on your whiteboard where 2/3 belongs.

        ## Exit Ticket
        52–60 min
        1. Place 1/4 on the number line.
        2. Place 3/8 on the number line.
        3. Explain how you knew where 3/8 goes.

        ## Homework / Extension (optional)
        Find three fractions at home, such as in a recipe, and draw them on a number line.
        """

    package static let goodBold = """
        **Lesson: Writing a Strong Claim** (Grades 9–12, 45 minutes)

        **Learning Objective:**
        Students will write an arguable claim and support it with two pieces of evidence.

        **Materials:**
        Sample op-ed, highlighters, claim-evidence organizer.

        **Warmup — 5 minutes**
        Quick write: Should school start later? Give one reason.

        **Direct Instruction — 10 minutes**
        Define claim, evidence, and reasoning using the sample op-ed. Highlight each part in a different color.

        **Guided Practice**
        Students work in groups of 3-4 to sort evidence cards by strength (7 min), then share the strongest card with the class (3 min).

        **Independent Practice**
        Students draft a claim and two supporting reasons on the organizer for 12 minutes.

        **Differentiation:**
        Provide a claim starter for students who need it; challenge advanced writers to address a counterclaim.

        **Check For Understanding (CFU)** — 5 minutes
        Is "Pizza is food" an arguable claim? Why or why not?
        Which piece of evidence on your organizer is strongest?
        How does your reasoning connect the evidence to the claim?

        **Exit Ticket – 3 minutes**
        - Write your claim in one sentence.
        - List your strongest piece of evidence.
        - Rate your confidence from 1 to 5.

        **Homework/Extension:**
        Revise your claim using one piece of feedback from a partner; aim for about 20 minutes.
        """

    /// A 5E plan, checked with the warm-up, CFU and exit ticket checks switched off.
    package static let goodFiveE = """
        Step 1: Engage (5 minutes)
        Drop a raisin into a glass of soda and ask: why does it rise and sink?

        Step 2: Explore (15 minutes)
        Groups test raisins, rice and pasta in soda and record what happens.

        Step 3: Explain (10 minutes)
        Connect the bubbles to density and buoyant force with a labeled sketch.

        Step 4: Elaborate (12 minutes)
        Predict and test which other objects will "dance".

        Step 5: Evaluate (8 minutes)
        1. What makes the raisin rise?
        2. Why does it sink again?
        """

    // MARK: - Broken plans, one problem each

    package static let missingMaterials = """
        1. Learning Objective
        Students will compare the areas of rectangles with the same perimeter.

        2. Warm-Up (5 min)
        Draw two rectangles with a perimeter of 12 units.

        3. Direct Instruction (10 min)
        Model counting unit squares and multiplying length by width.

        4. Guided Practice (10 min)
        Pairs build rectangles on geoboards and record each area.

        5. Independent Practice (10 min)
        Students solve six area problems.

        6. Differentiation
        Provide grid paper to students who need it.

        7. Check for Understanding (5 min)
        1. What is the area of a 3 by 4 rectangle?
        2. Can two rectangles with the same perimeter have different areas?
        3. Which rectangle with perimeter 12 has the largest area?

        8. Exit Ticket (5 min)
        1. Find the area of a 2 by 5 rectangle.
        2. Draw a rectangle with an area of 9.
        3. Explain how area and perimeter differ.

        9. Homework / Extension (optional)
        Measure a room at home and find its area.
        """

    package static let duplicateGuided = """
        ## Learning Objective
        Students will identify the main idea of a paragraph.

        ## Materials
        Short nonfiction passages, highlighters.

        ## Warm-Up (5 min)
        Students guess the topic of a passage from its title.

        ## Direct Instruction (10 min)
        Model finding the main idea and two supporting details.

        ## Guided Practice (10 min)
        Small groups highlight the main idea in a shared passage.

        ## Independent Practice (10 min)
        Students read a new passage and write its main idea.

        ## Guided Practice
        Regroup students who struggled and reread the first passage together.

        ## Differentiation
        Offer passages at three reading levels.

        ## Check for Understanding (5 min)
        - What is the main idea of the second paragraph?
        - Which detail supports it best?
        - How is a detail different from the main idea?

        ## Exit Ticket (5 min)
        1. Write the main idea of the last passage.
        2. List one supporting detail.
        3. Give the passage a new title.

        ## Homework / Extension (optional)
        Find the main idea of a news article.
        """

    package static let exitBeforeCFU = """
        **Learning Objective**
        Students will describe the phases of the Moon.

        **Materials**
        Flashlight, foam balls on sticks, Moon phase cards.

        **Warm-Up (5 min)**
        Show photos of the Moon and ask what changes.

        **Direct Instruction (10 min)**
        Use the flashlight and a ball to model how sunlight lights half the Moon.

        **Guided Practice (10 min)**
        Students model each phase with their foam ball.

        **Independent Practice (10 min)**
        Students order the phase cards and label them.

        **Differentiation**
        Provide a labeled diagram for reference.

        **Exit Ticket (5 min)**
        1. Draw a first quarter Moon.
        2. Name the phase after a full Moon.
        3. Explain why the Moon seems to change shape.

        **Check for Understanding (5 min)**
        1. What lights up the Moon?
        2. Why can we not see a new Moon?
        3. How long does one cycle of phases take?

        **Homework / Extension (optional)**
        Sketch the Moon each night for a week.
        """

    package static let pacingFifty = """
        Learning Objective:
        Students will explain the causes of the American Revolution.

        Materials:
        Timeline cards, primary source excerpts.

        Warm-Up (5 min):
        Ask: What makes a rule unfair?

        Direct Instruction (10 min):
        Walk through taxes and protests from 1763 to 1775.

        Guided Practice (10 min):
        Groups place events on a class timeline.

        Independent Practice (15 min):
        Students read one primary source and write its main complaint.

        Differentiation:
        Provide excerpts with vocabulary notes.

        Check for Understanding (5 min):
        1. What was the Stamp Act?
        2. Why did colonists protest taxes?
        3. Which event came first?

        Exit Ticket (5 min):
        1. Name one cause of the Revolution.
        2. Explain why it made colonists angry.
        3. Ask one question you still have.

        Homework / Extension (optional):
        Interview a family member about a time they protested a rule.
        """

    package static let warmUpTen = """
        1) Learning Objective
        Students will classify animals as vertebrates or invertebrates.

        2) Materials
        Animal picture cards, sorting mats.

        3) Warm-Up (10 min)
        Students sort the picture cards any way they like and explain their groups.

        4) Direct Instruction (5 min)
        Explain what a backbone is and show two examples of each group.

        5) Guided Practice (10 min)
        Sort the cards again as a class using the new groups.

        6) Independent Practice (10 min)
        Students sort a new set of cards on their own.

        7) Differentiation
        Give some students cards with labels on the back.

        8) Check for Understanding (5 min)
        1. Does a worm have a backbone?
        2. Is a fish a vertebrate?
        3. What do all vertebrates have?

        9) Exit Ticket (5 min)
        1. Name one vertebrate.
        2. Name one invertebrate.
        3. Explain how you decided.

        10) Homework / Extension (optional)
        Find three animals in your neighborhood and classify them.
        """

    package static let twoCFU = """
        ## 1. Learning Objective
        Students will use commas in a series correctly.

        ## 2. Materials
        Sentence strips, a mentor text.

        ## 3. Warm-Up (5 min)
        Students list three things they packed for lunch.

        ## 4. Direct Instruction (10 min)
        Show how commas separate items in a list.

        ## 5. Guided Practice (10 min)
        Fix comma errors in sentence strips as a class.

        ## 6. Independent Practice (10 min)
        Students write four sentences that each list three items.

        ## 7. Differentiation
        Provide a word bank of nouns.

        ## 8. Check for Understanding (5 min)
        - Where does the comma go in "apples pears and plums"?
        - Do you need a comma before "and"?

        ## 9. Exit Ticket (5 min)
        1. Write a sentence with three foods.
        2. Add commas to "red blue and green".
        3. Explain why the commas help the reader.

        ## 10. Homework / Extension (optional)
        Find a list sentence in a book at home.
        """

    package static let exitTicketTwo = """
        Step 1: Learning Objective
        Students will measure angles with a protractor.

        Step 2: Materials
        Protractors, angle worksheet.

        Step 3: Warm-Up (5 min)
        Sort angles as acute, right or obtuse.

        Step 4: Direct Instruction (10 min)
        Model lining up the protractor and reading the correct scale.

        Step 5: Guided Practice (10 min)
        Measure three angles together.

        Step 6: Independent Practice (10 min)
        Measure the angles on the worksheet.

        Step 7: Differentiation
        Give larger printed angles to students who need them.

        Step 8: Check for Understanding (5 min)
        1. Which scale do you read when the angle opens to the right?
        2. Is a 95 degree angle acute or obtuse?
        3. Where do you place the center of the protractor?

        Step 9: Exit Ticket (5 min)
        1. Measure angle A.
        2. Draw a 60 degree angle.

        Step 10: Homework / Extension (optional)
        Find three angles in your kitchen and estimate them.
        """

    package static let exitTicketFour = """
        LEARNING OBJECTIVE
        Students will explain how the water cycle moves water around Earth.

        MATERIALS
        Water cycle diagram, clear cups, plastic wrap.

        WARM-UP (5 MIN)
        Ask where a puddle goes on a sunny day.

        DIRECT INSTRUCTION (10 MIN)
        Explain evaporation, condensation and precipitation with the diagram.

        GUIDED PRACTICE (10 MIN)
        Build a cup model of the water cycle in groups.

        INDEPENDENT PRACTICE (10 MIN)
        Label a blank water cycle diagram.

        DIFFERENTIATION
        Provide word cards with pictures.

        CHECK FOR UNDERSTANDING (5 MIN)
        1. What is evaporation?
        2. What forms when water vapor cools?
        3. Name one kind of precipitation.

        EXIT TICKET (5 MIN)
        1. Define condensation.
        2. Draw the water cycle.
        3. Explain where rain comes from.
        4. Name the source of energy for the cycle.

        HOMEWORK / EXTENSION (OPTIONAL)
        Watch the cup model at home for two days.
        """

    package static let fenced = """
        ```
        Learning Objective
        Students will write a haiku about nature.

        Materials
        Nature photos, syllable chart.

        Warm-Up (5 min)
        Clap the syllables in classmates' names.

        Direct Instruction (10 min)
        Read two haiku and count their syllables together.

        Guided Practice (10 min)
        Write a class haiku about the weather.

        Independent Practice (10 min)
        Students write their own haiku from a photo.

        Differentiation
        Offer a word bank sorted by syllable count.

        Check for Understanding (5 min)
        1. How many syllables are in the first line of a haiku?
        2. What is a haiku usually about?
        3. How many lines does a haiku have?

        Exit Ticket (5 min)
        1. Write one line of five syllables.
        2. Name the season in your haiku.
        3. Share your favorite word from today.

        Homework / Extension (optional)
        Write a haiku about your street.
        ```
        """

    package static let untimed = """
        Learning Objective
        Students will retell a story in order.

        Materials
        Picture book, sequence cards.

        Warm Up
        Students tell a partner what they did this morning, in order.

        Direct Instruction
        Read the book aloud and stop to name what happened first, next and last.

        Guided Practice
        Put the sequence cards in order as a class.

        Independent Practice
        Students draw the beginning, middle and end.

        Differentiation
        Use three cards instead of five for some students.

        Check for Understanding
        1. What happened first?
        2. What happened next?
        3. How did the story end?

        Exit Ticket
        1. Draw the first event.
        2. Draw the last event.
        3. Tell a partner one thing in the middle.

        Homework / Extension (optional)
        Retell the story to someone at home.
        """

    /// A plan whose exit ticket is headed `9) Wrap-up`, a heading the framework does not name.
    package static let wrapUp = """
        Lesson Plan: Area
        1) Learning Objective
        Find the area of rectangles.
        2) Materials
        - Grid paper
        3) Warm-Up (5 min)
        Count squares.
        4) Direct Instruction (10 min)
        Model length times width.
        5) Guided Practice (10 min)
        Pairs measure desks.
        6) Independent Practice (10 min)
        Worksheet.
        7) Differentiation
        - Support: grid overlays.
        8) Check for Understanding (5 min)
        1. What is the area of a 3 by 4 rectangle?
        2. Why do we multiply?
        9) Wrap-up (5 min)
        10. Find the area of a 2 by 5 rectangle.
        11. Draw a rectangle with an area of 9.
        12. Explain how area and perimeter differ.
        10) Homework / Extension (optional)
        Measure a room at home.
        """
}
