import Foundation
import LessonPlanCore

/// `/rubric [levels]`: a criteria × levels rubric for the plan's independent task, with a version for students,
/// checked and repaired once, kept beside the plan version it was made from.
public struct RubricCommand: Command, Equatable {
    public static let name = "rubric"
    public static let asksTheModel = true
    public static let usage = "/rubric [levels]"
    public static let summary = "a rubric for the plan's independent task, shown as a table (default: 4 levels)"
    public static let details = """
        levels is 2 to 6, lowest first, each with its points. The rubric is checked (the level count, every cell
        filled, levels in order, no criterion twice) and, when it fails, repaired once. It is kept beside the plan
        version it was made from: /show rubric prints it; exports of that version carry it (the students' “I can …”
        version on handouts and slides).
        """
    public static let templates = ["rubric", "rubric-repair"]

    public let levels: Int

    public init(levels: Int = Rubric.defaultLevels) { self.levels = levels }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let words = arguments.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return Self() }
        guard let number = Int(first), words.count == 1 || (words.count == 2 && words[1].hasPrefix("level")) else {
            throw CommandError("/rubric takes a number of levels, e.g. /rubric 4.")
        }
        guard Rubric.levelRange.contains(number) else {
            throw CommandError("A rubric has \(Rubric.levelRange.lowerBound) to \(Rubric.levelRange.upperBound) levels, not \(number); e.g. /rubric 4.")
        }
        return Self(levels: number)
    }

    public func run(_ run: CommandRun) async -> CommandOutcome {
        let columns = run.host.columns
        let (outcome, result) = await run.assessment(
            .rubric(levels: levels), waiting: "writing the rubric…",
            shows: { text in
                let table = Self.table(RubricReader.read(text), text: text, width: columns)
                return StyledText(table.hasSuffix("\n") ? String(table.dropLast()) : table)
            })
        guard result.first.status == .completed else { return outcome }
        if let made = result.outcomes.compactMap(\.rubric).last, let rubric = await run.engine.state.rubrics.last, rubric.number == made {
            run.host.deliver(.text(Self.table(rubric.rubric, text: rubric.text, width: columns)))
        }
        return outcome
    }

    /// The rubric as an aligned table `width` columns wide, or the answer as it came when it holds no table.
    static func table(_ rubric: Rubric, text: String, width: Int) -> String {
        rubric.levels.isEmpty ? text : AssessmentText.rubricTable(rubric, width: width)
    }
}
