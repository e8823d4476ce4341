import Foundation

/// Plans shared by the unit and end-to-end tests.
package enum PlanFixtures {
    /// The plan quoted in issue #23, as the offline model wrote it for `generate --local --grade 4 --topic
    /// "Fractions on a number line"`: structurally sound, so it used to get "✓ structure · ✓ content".
    package static let offlineFractions = """
        Learning Objective
        - Fractions on a number line for students in grades 3–5.

        Materials
        - ten minutes, 2 questions to answer

        Warm-Up (0–5 min)
        - Fraction Flipper: students hold up a card and flip it to show a half.

        Direct Instruction (5–15 min)
        - The teacher explains fractions with apples on the board.

        Guided Practice (15–23 min)
        - Fraction Flipper.
        - How many are there?
        - This is a math problem. You can ask for fractions of apples.
        - You have 10 apples, and you want to know how many are there? This is a math question.

        Independent Practice (23–33 min)
        - Fraction Flipper.
        - How many are there?
        - This is a math problem. You can ask for fractions of apples.
        - You have 10 apples, and you want to know how many are there? This is a math question.

        Differentiation
        - Fraction Flipper.
        - How many are there?
        - This is a math problem. You can ask for fractions of apples.
        - You have 10 apples, and you want to know how many are there? This is a math question.

        Check for Understanding (33–39 min)
        1. Fraction Flipper.
        2. How many are there?
        3. This is a math problem. You can ask for fractions of apples.
        4. You have 10 apples, and you want to know how many are there? This is a math question.

        Exit Ticket (39–45 min)
        1. Fraction Flipper.
        2. How many are there?
        3. This is a math problem. You can ask for fractions of apples.

        Homework / Extension (optional)
        - Fraction Flipper.
        - How many are there?
        - This is a math problem. You can ask for fractions of apples.
        - You have 10 apples, and you want to know how many are there? This is a math question.
        """

    /// A 45-minute plan whose exit ticket is numbered on from the CFU and which runs 10 minutes over.
    package static let overrunningTides = """
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

    /// A plan in the default framework that passes the check for a lesson of `minutes` (at least 25):
    /// a 5-minute warm-up and timed sections whose minutes add up exactly. `number` is written into
    /// its last line, so a test can tell answers apart.
    package static func passing(minutes: Int, number: Int = 1, topic: String = "Tides") -> String {
        let rest = minutes - 5
        let direct = rest * 3 / 10
        let guided = rest / 4
        let cfu = rest / 10
        let exit = rest / 10
        let independent = rest - direct - guided - cfu - exit
        let t2 = 5 + direct
        let t3 = t2 + guided
        let t4 = t3 + independent
        let t5 = t4 + cfu
        return """
            Learning Objective
            Students will be able to explain the key ideas of \(topic) and apply them to a new example.

            Materials
            - Slides or board notes on \(topic)
            - Exit ticket slips

            Warm-Up (5 min)
            - Minutes 0–5: Quick-write: what do you already know about \(topic)? Pair-share two ideas.

            Direct Instruction
            (\(direct) min)
            - Minutes 5–\(t2): Introduce the key vocabulary with one worked example; pause for questions.

            Guided Practice
            (\(guided) min)
            - Minutes \(t2)–\(t3): In pairs, students work through two examples while the teacher circulates.

            Independent Practice
            (\(independent) min)
            - Minutes \(t3)–\(t4): Students complete three practice items on their own.

            Differentiation
            - Support: sentence frames and a labelled diagram.
            - Extension: students write their own example and explain it to a partner.

            Check for Understanding
            (\(cfu) min)
            - Minutes \(t4)–\(t5):
            1. What is the main idea of \(topic)?
            2. How does the worked example show it?
            3. Where could you see this outside school?

            Exit Ticket
            (\(exit) min)
            - Minutes \(t5)–\(minutes):
            1. One key idea I learned…
            2. One question I still have…
            3. One way I could use this…

            Homework / Extension (optional)
            - Find one real-world example of \(topic) and describe it in two sentences.

            Plan #\(number), \(minutes) minutes in total.
            """
    }

    /// The lesson length a request's prompt asks for ("Duration: 45 minutes", "in 30 minutes instead of").
    package static func requestedMinutes(in body: Data) -> Int? {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let input = object?["input"] as? String ?? ""
        for pattern in [#"in (\d+) minutes instead of"#, #"Duration: (\d+) minutes"#, #"exactly (\d+) minutes"#] {
            if let range = input.range(of: pattern, options: .regularExpression) {
                let digits = input[range].filter(\.isNumber)
                return Int(digits)
            }
        }
        return nil
    }
}
