import Foundation
import LessonPlanCore
import LessonPlanModel

/// `/repair [on|off]`: fix the plan's problems now, or turn the automatic repair on or off.
package struct RepairCommand: Command, Equatable {
    package static let name = "repair"
    package static let asksTheModel = true
    package static let templates = ["repair"]
    package static let usage = "/repair [on|off]"
    package static let summary = "fix what the plan check found, once (kept only if it checks better); on/off: automatic repair"
    package static let details = """
        A plan with a structure or content problem is repaired once automatically, unless the session was
        started with --no-repair or /repair off was typed (saved with the session: resume and replay --rerun
        keep it). Advice is never sent on its own; /repair sends the problems and the advice. The repaired
        plan replaces the draft only if it checks better; one that does not is not shown (/show repair shows it).
        """
    package static let argumentCompletions = ["on", "off"]
    // `/repair on|off` works before the first plan; a repair itself needs one, checked in `parse`.
    package static let needsPlan = false

    /// nil: repair now; true or false: turn the automatic repair on or off.
    package let automatic: Bool?

    package init(automatic: Bool?) { self.automatic = automatic }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        switch arguments.lowercased() {
        case "on": return Self(automatic: true)
        case "off": return Self(automatic: false)
        case "":
            guard context.currentVersion != nil else {
                if !context.canSend { throw CommandError("/repair needs a plan, but \(SessionAdvice.noPlanNoKey)") }
                throw CommandError("/repair needs a plan first; type /generate to write one.")
            }
            return Self(automatic: nil)
        default:
            throw CommandError("“\(arguments)” is not an option of /repair; type /repair, /repair on or /repair off.")
        }
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        if let automatic {
            run.settings.followUps.repair = automatic
            await run.engine.setAutomaticRepair(automatic)
            run.host.show(
                StyledText(
                    automatic
                        ? "Automatic repair is on: a plan that fails the check is repaired once."
                        : "Automatic repair is off: plans that fail the check are shown as they are; /repair fixes one."))
            return .done
        }
        let engine = run.engine
        let host = run.host
        let line = run.line
        let outcome = await host.cancellable {
            await engine.repair(command: line) { update in host.progress(update, waiting: "repairing the plan…") }
        }
        guard let outcome else {
            if let current = await engine.state.current {
                host.show(StyledText("v\(current.number) passes the plan check; there is nothing to repair."))
            }
            return .done
        }
        if outcome.status == .completed { host.deliver(.plan) }
        return CommandOutcome(sent: [outcome])
    }
}
