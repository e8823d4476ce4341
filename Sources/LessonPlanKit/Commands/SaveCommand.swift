import Foundation

/// `/save [name]`: write anything a full disk kept in memory, and name the session so it can be resumed by name.
public enum SaveCommand: SlashCommand {
    public static let name = "save"
    public static let usage = "/save [name]"
    public static let summary = "name this session to resume it by name; alone, write what a full disk kept unsaved"
    public static let needsPlan = false

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        guard !arguments.isEmpty else { return .save(name: nil) }
        do { return .save(name: try SessionStore.validName(arguments)) } catch {
            throw CommandError(error.errorDescription ?? "That name cannot be used.")
        }
    }
}
