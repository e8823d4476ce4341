import Foundation

/// `/save <name>`: name the session so it can be resumed by name.
public enum SaveCommand: SlashCommand {
    public static let name = "save"
    public static let usage = "/save <name>"
    public static let summary = "name this session (it is saved already) to resume it by name"
    public static let needsPlan = false

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        guard !arguments.isEmpty else {
            throw CommandError("/save needs a name, e.g. /save photosynthesis week 2; the session itself is always saved.")
        }
        do { return .save(name: try SessionStore.validName(arguments)) } catch {
            throw CommandError(error.errorDescription ?? "That name cannot be used.")
        }
    }
}
