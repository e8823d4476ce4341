import Foundation
import LessonPlanCore

/// `/source FILE` adds a source the plans are grounded in and their quotations checked against;
/// `/source` lists them; `/source remove N` takes one away.
package struct SourceCommand: Command, Equatable {
    package static let name = "source"
    package static let usage = "/source [FILE | remove N]"
    package static let summary = "ground the plans in your own text (PDF, docx, odt, txt, md); alone, list the sources"
    package static let details = """
        Each request then carries the source's pages (a long one cut to the pages nearest the topic), and every
        quotation in a plan is checked against them: verified, on the wrong page, or not in the source.
        """
    package static let needsPlan = false
    package static let templates = ["sources"]

    package enum Action: Equatable, Sendable {
        case list
        case add(String)
        case remove(Int)
    }

    package let action: Action

    package init(_ action: Action) { self.action = action }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let trimmed = arguments.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return Self(.list) }
        let words = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        if words.first?.lowercased() == "remove" {
            guard words.count == 2, let number = Int(words[1]), number >= 1 else {
                throw CommandError("Type /source remove N, N being the source's number in /source's list.")
            }
            return Self(.remove(number))
        }
        var path = trimmed
        // A path pasted in quotes (a name with spaces) is the path without them.
        if path.count >= 2, let first = path.first, first == path.last, first == "\"" || first == "'" {
            path = String(path.dropFirst().dropLast())
        }
        return Self(.add(path))
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        switch action {
        case .list:
            let sources = await run.engine.sources
            guard !sources.isEmpty else {
                run.host.show(StyledText("No sources yet; /source FILE adds a PDF, docx, odt, txt or md file."))
                return .done
            }
            var lines = sources.enumerated().map { "  \($0.offset + 1). \($0.element.summary)" }
            lines += sources.compactMap { $0.fileOnDiskNote() }.map { "  \($0)" }
            run.host.show(StyledText(lines.joined(separator: "\n")))
            return .done
        case .add(let path):
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath, relativeTo: run.host.workingDirectory)
            let source: SourceDocument
            do throws(SourceError) { source = try await SourceReader().read(url) } catch {
                run.host.error(error.errorDescription ?? "That file cannot be a source.")
                return .failed
            }
            await run.engine.addSource(source)
            let count = await run.engine.sources.count
            run.host.note(StyledText("Added source \(count): \(source.summary)."))
            return .done
        case .remove(let number):
            do {
                let removed = try await run.engine.removeSource(number)
                run.host.note(StyledText("Removed source \(number): \(removed.name)."))
                return .done
            } catch {
                run.host.error(error.localizedDescription)
                return .failed
            }
        }
    }
}
