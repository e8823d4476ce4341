import Foundation

/// `/slides [FILE.pptx] [--force]`: the plan as PowerPoint slides, written as `/export pptx` writes them.
package struct SlidesCommand: Command, Equatable {
    package static let name = "slides"
    package static let usage = "/slides [FILE.pptx] [--force]"
    package static let summary = "the plan as PowerPoint slides: a slide per section, its quiz one item a slide, teacher notes as speaker notes"
    package static let details = """
        Without FILE the slides go to <topic>-v<N>.pptx in the current folder. The quiz and rubric made from this
        plan version come after the sections (answers and misconceptions in the speaker notes, the students'
        rubric). An existing file is kept: at a terminal you are asked whether to replace it; elsewhere add --force.
        Needs pandoc.
        """

    /// The export that writes the slides.
    package let export: ExportCommand

    package init(path: String? = nil, force: Bool = false) {
        export = ExportCommand(format: .pptx, path: path, force: force)
    }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        var words = arguments.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let force = words.contains("--force")
        words.removeAll { $0 == "--force" }
        let path = words.joined(separator: " ")
        if path.hasPrefix("-") {
            throw CommandError("“\(path)” is not an option of /slides; the only one is --force (replace the file).")
        }
        if !path.isEmpty, !path.lowercased().hasSuffix(".pptx") {
            throw CommandError("/slides writes PowerPoint slides; name the file FILE.pptx, or leave it out for <topic>-v<N>.pptx.")
        }
        return Self(path: path.isEmpty ? nil : path, force: force)
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        await export.run(run)
    }
}
