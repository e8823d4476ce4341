import Foundation

/// A unit's overview in the layout the prompt asks for: three lessons on fractions.
package enum UnitFixtures {
    package static let overview = """
        Goal: Students compare and order fractions with unlike denominators.
        Essential questions:
        - How can two different fractions name the same amount?
        - When is one fraction larger than another?

        Lesson 1: Unit fractions
        Objective: Students will name and draw unit fractions of a whole.
        Builds on: equal shares from grade 3

        Lesson 2: Equivalent fractions
        Objective: Students will generate equivalent fractions with area models.
        Builds on: Lesson 1

        Lesson 3: Comparing fractions
        Objective: Students will compare two fractions using benchmarks and common denominators.
        Builds on: Lessons 1 and 2
        """
}
