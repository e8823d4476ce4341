import Foundation
import LessonPlanCore

/// `/edit`: fix the plan by hand in `$VISUAL` / `$EDITOR`.
package struct EditCommand: Command, Equatable {
    package static let name = "edit"
    package static let usage = "/edit"
    package static let summary = "edit the plan yourself in $VISUAL / $EDITOR (vi); saving makes a new version"
    package static let needsTerminal = true

    package init() {}

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        try expectNoArguments(arguments)
        return Self()
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        guard let current = await run.currentPlan() else { return .failed }
        // Editors expect a final newline; a file saved unchanged must not count as an edit.
        let original = current.text.hasSuffix("\n") ? current.text : current.text + "\n"
        let edited: String
        do { edited = try await run.host.edit(original, fileName: "plan-v\(current.number).txt") } catch {
            run.host.error("\(error.message) Nothing changed; still v\(current.number).")
            return .failed
        }
        guard edited != original else {
            run.host.show(StyledText("No changes; still v\(current.number)."))
            return .done
        }
        do {
            guard let version = try await run.engine.handEdit(edited, command: run.line) else {
                run.host.show(StyledText("No changes; still v\(current.number)."))
                return .done
            }
            var text = StyledText("Saved your edit as v\(version.number) (from v\(current.number)); /diff shows what changed.\n")
            if let report = version.check, let framework = try? await run.engine.framework(of: version) {
                let lines =
                    report.problems.map { "   ✗ \(framework.describe($0))" }
                    + report.contentProblems.map { "   ✗ \(framework.describe($0))" }
                    + report.advice.map { "   • \(framework.describe($0))" }
                text.append("── \(report.summary)" + (lines.isEmpty ? "" : ":\n" + lines.joined(separator: "\n")), style: .dim)
            }
            run.host.show(text)
            run.host.deliver(.plan)
            return .done
        } catch {
            run.host.error(error.message)
            return .failed
        }
    }
}
