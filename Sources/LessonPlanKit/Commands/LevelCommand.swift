import Foundation

/// `/level`: how hard the student-facing text of the plan is to read, against the band's range.
public enum LevelCommand: SlashCommand {
    public static let name = "level"
    public static let usage = "/level"
    public static let summary = "reading level (Flesch–Kincaid) of what students read, against the band's range"
    public static let details = """
        Expected ranges, after the Common Core text-complexity bands: K–2 up to 2.5, 3–5 2–5.5, 6–8 6–10, 9–12 8–14.
        /regrade measures the new plan and, if it misses its band's range, asks once more with the measured level.
        """

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        try expectNoArguments(arguments)
        return .level
    }
}
