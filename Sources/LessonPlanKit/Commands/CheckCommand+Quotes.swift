import Foundation
import LessonPlanCore

// `/check` of a session with sources: the plan check, then every quotation and its verdict.
extension CheckCommand {
    package func run(_ run: CommandRun) async -> CommandOutcome {
        guard let (current, framework) = await run.currentPlanAndFramework() else { return .failed }
        var text = Self.report(of: current, framework: framework)
        let sources = await run.engine.sources
        if !sources.isEmpty {
            text.append("\n" + Self.quoteLines(await run.engine.quotes(in: current.text), sources: sources))
        }
        run.host.show(text)
        return .done
    }

    /// The quotation part of `/check`: a count, then one line per quotation.
    static func quoteLines(_ report: QuoteReport, sources: [SourceDocument]) -> String {
        var lines = ["Quotations checked against \(sources.map(\.name).joined(separator: ", ")):"]
        if report.verdicts.isEmpty {
            lines.append("  The plan quotes nothing (a quotation is 2 words or more in quotation marks, then a page).")
        } else {
            lines.append("  " + (report.footer ?? ""))
            lines += report.verdicts.map { "  \($0.result == .verified ? "✓" : "✗") \($0.sentence)" }
        }
        for note in sources.compactMap({ $0.fileOnDiskNote() }) { lines.append("  \(note)") }
        return lines.joined(separator: "\n")
    }
}
