import Foundation

/// `/export [materials] md|html|json [FILE]`: the current plan, or the latest handouts, as a document.
public enum ExportCommand: SlashCommand {
    public static let name = "export"
    public static let usage = "/export [materials] md|html|json [FILE]"
    public static let summary = "write the plan (or the handouts) as Markdown, a printable HTML page, or JSON"
    public static let details = "An existing FILE is not overwritten; choose another name or use `lessonplan export … --force`."
    public static var argumentCompletions: [String] { ExportFormat.allCases.map { $0.rawValue } + ["materials"] }

    public static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> CommandAction {
        var rest = arguments
        let materials = rest.lowercased() == "materials" || rest.lowercased().hasPrefix("materials ")
        if materials { rest = String(rest.dropFirst("materials".count)).trimmingCharacters(in: .whitespaces) }
        let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = parts.first, let format = ExportFormat(text: first) else {
            let example = materials ? "/export materials md" : "/export md"
            throw CommandError("/export needs a format: \(example), html or json, then an optional file name.")
        }
        let given = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        let path = given?.isEmpty == true ? nil : given
        return materials ? .exportMaterials(format: format, path: path) : .export(format: format, path: path)
    }
}
