import Foundation

/// `/repair [on|off]`: fix the plan's problems now, or turn the automatic repair on or off.
public enum RepairCommand: SlashCommand {
    public static let name = "repair"
    public static let templates = ["repair"]
    public static let usage = "/repair [on|off]"
    public static let summary = "fix what the plan check found, once (kept only if it checks better); on/off: automatic repair"
    public static let details = """
        A plan that fails the check is repaired once automatically, unless the session was started with
        --no-repair or /repair off was typed. The repaired plan replaces the draft only if it checks better.
        """
    public static let argumentCompletions = ["on", "off"]
    // `/repair on|off` works before the first plan; a repair itself needs one, checked in `parse`.
    public static let needsPlan = false

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        switch arguments.lowercased() {
        case "on": return .autoRepair(true)
        case "off": return .autoRepair(false)
        case "":
            guard context.currentVersion != nil else {
                throw CommandError("/repair needs a plan first; type /generate to write one.")
            }
            return .repair
        default:
            throw CommandError("“\(arguments)” is not an option of /repair; type /repair, /repair on or /repair off.")
        }
    }
}
