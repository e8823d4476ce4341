import Foundation

/// Quizzes and rubrics as models write them: good ones in the asked layout and in the usual drift, and bad
/// ones each with the problems the check must name.
enum AssessmentCorpus {
    /// A starter quiz of 3 items in exactly the asked layout.
    static let starter = """
        Quiz: starter
        Misconceptions:
        - Plants take their food from the soil.
        - Only animals need energy.

        1. What do all living things need?
        A) Energy
        B) Soil
        C) Sunlight only
        Answer: A
        Misconception B: Soil is food for every living thing.
        Feedback B: Think of an animal that never touches soil; what does it still need?
        Misconception C: Only light counts as a need.
        Feedback C: Light is one need, but think about what light gives a living thing.

        2. Which part of a plant takes in water?
        A) The leaves
        B) The flowers
        C) The roots
        D) The seeds
        Answer: C
        Misconception A: Leaves drink the rain.
        Feedback A: Rain lands on leaves, but think about where water is in the ground.
        Misconception B: Flowers collect water for the plant.
        Feedback B: Flowers come late in a plant's life; what takes in water before they grow?
        Misconception D: Seeds hold all the water a plant needs.
        Feedback D: A seed starts the plant; what part keeps taking in water once it grows?

        3. What gas do animals breathe out?
        A) Oxygen
        B) Carbon dioxide
        C) Nitrogen
        Answer: B
        Misconception A: Animals breathe out the same gas they breathe in.
        Feedback A: Your body uses up some of what you breathe in; what is made in its place?
        Misconception C: Breath is mostly the air's main gas, unchanged.
        Feedback C: Nitrogen passes in and out unchanged; the question asks what your body adds.
        """

    /// An exit quiz of 3 items in markdown drift: headings, bold, bullets, lower-case letters, `Correct answer`.
    static let driftingExit = """
        ## Exit Quiz

        **Misconceptions:**
        * Plants get their mass from the soil.

        **Q1.** Where does most of a tree's mass come from?
        - a) The soil
        - b) Carbon dioxide from the air
        - c) Water
        **Correct answer:** B) Carbon dioxide from the air
        Why a: Plants eat soil.
        **Student feedback a:** A tree in a pot takes very little soil away; where else could its mass come from?
        Why c: Water is the plant's food.
        - Feedback for (c) – Water matters, but think about what the leaves take in from the air.

        Question 2: What does a leaf make
        in sunlight?
        (A) Sugar
        (B) Soil
        (C) Rocks
        Key: Sugar
        Misconception (B): Leaves make the soil they grow in.
        Feedback (B): Soil was there before the leaf; what does a leaf make from light?
        Misconception (C): Minerals come from leaves.
        Feedback (C): Rocks are not made by living things; think about what gives a plant energy.

        3) Which gas do plants give off in light?
        A. Oxygen ✓
        B. Carbon dioxide
        C. Helium
        Misconception B: Plants only breathe out like animals.
        feedback b: Plants take this gas in during the day; what do they give back?
        Misconception C: Any gas could come from a plant.
        FEEDBACK C: Helium is not made by living things; which gas do we breathe in?
        """

    /// A quiz with every item problem at once.
    static let broken = """
        Quiz: exit

        1. Which is a producer?
        A) Grass
        B) A rabbit
        C) A fox
        D) All of the above
        Answer: A
        Misconception B: Animals that eat plants make food.
        Feedback B: A rabbit eats its food; what makes food from sunlight?
        Misconception C: Hunters make their own food.
        Feedback C: A fox hunts for its food; look for the one that makes its own.

        2. What do plants need from the air?
        A) Oxygen
        B) Carbon dioxide
        C) carbon dioxide.
        Answer: B and C
        Misconception A: Plants breathe like us.

        3. What makes sugar in a leaf?
        A) Chlorophyll
        B) Roots
        Misconception B: Roots make sugar.

        4. Pick one.
        A) Light
        B) Dark
        Answer: E
        """
}

extension AssessmentCorpus {
    /// A 4-level rubric with a student version, as asked.
    static let rubric = """
        Rubric: Labelled diagram of photosynthesis
        | Criterion | Beginning (1) | Developing (2) | Proficient (3) | Exemplary (4) |
        | --- | --- | --- | --- | --- |
        | Inputs and outputs | Names one input or output. | Names the inputs or the outputs. | Names every input and output. | Names every input and output and where each enters or leaves. |
        | Role of light | Does not mention light. | Mentions light without its role. | Explains that light gives the energy. | Explains light's energy and where it is captured. |
        | Labels | Few labels, mostly wrong. | Some labels correct. | All labels correct. | All labels correct, with arrows showing flow. |

        Student version:
        | I can … | Beginning (1) | Developing (2) | Proficient (3) | Exemplary (4) |
        | --- | --- | --- | --- | --- |
        | I can name what goes in and out. | I named one. | I named some. | I named all of them. | I named all and showed where. |
        | I can explain what light does. | I left light out. | I said light is needed. | I said light gives energy. | I said where the energy is caught. |
        | I can label my diagram. | A few labels. | Some right labels. | All labels right. | All right, with arrows. |
        """

    /// A rubric with every problem the check names: points out of order, a missing level point, a repeated
    /// criterion, an empty cell, a short row and an extra cell.
    static let brokenRubric = """
        **Rubric**
        | Criterion | Exemplary (4) | Proficient (3) | Developing |
        |:---|:---:|:---:|---:|
        | Accuracy | All facts right. | Most facts right. | |
        | **Accuracy** | Uses evidence. | Some evidence. | No evidence. |
        | Presentation | Clear. | Mostly clear. |
        | Spelling | None wrong. | Few wrong. | Many wrong. | Illegible. |
        """
}
