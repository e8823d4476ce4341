import Foundation

/// Plans shared by the unit and end-to-end tests.
public enum PlanFixtures {
    /// A 45-minute plan whose exit ticket is numbered on from the CFU and which runs 10 minutes over.
    public static let overrunningTides = """
        Lesson Plan: Tides
        1) Learning Objective
        Explain what causes tides.
        2) Materials
        - Globe
        3) Warm-Up (0–5 min)
        Where does the water go?
        4) Direct Instruction (5–17 min)
        Model the moon's pull.
        5) Guided Practice (17–30 min)
        Pairs trace the bulges.
        6) Independent Practice (30–40 min)
        Label a tide diagram.
        7) Differentiation
        - Support: labelled diagram
        8) Check for Understanding (40–45 min)
        1. What pulls the ocean?
        2. How many high tides a day?
        3. Why two bulges?
        9) Exit Ticket (45–55 min)
        10. Draw the moon and the bulges.
        11. Name the force.
        12. Explain a spring tide.
        10) Homework / Extension (optional)
        Watch the tide for a week.
        """
}
