import Foundation
import PackagePlugin

/// Embeds every template under the package's top-level `prompts/` folder into LessonPlanCore, so the
/// built binary carries its defaults wherever it is copied: the `.txt` prompts, and the reference
/// documents (`.docx`, `.odt`, `.pptx`) pandoc takes document styles from, and the standards (`standards/standards.tsv`).
@main
struct EmbedPrompts: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let promptsDirectory = context.package.directoryURL.appending(path: "prompts")
        let files = promptFiles(under: promptsDirectory)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPrompts.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) prompt templates",
                executable: try context.tool(named: "PromptEmbedder").url,
                arguments: [output.path, promptsDirectory.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }

    private func promptFiles(under directory: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where ["txt", "tsv", "docx", "odt", "pptx"].contains(url.pathExtension) {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
