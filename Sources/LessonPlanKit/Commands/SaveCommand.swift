import Foundation
import LessonPlanCore
import LessonPlanStore

/// `/save [name]`: write anything a full disk kept in memory, and name the session so it can be resumed by name.
package struct SaveCommand: Command, Equatable {
    package static let name = "save"
    package static let usage = "/save [name]"
    package static let summary = "name this session to resume it by name; alone, write what a full disk kept unsaved"
    package static let needsPlan = false
    package static let reportsSaving = true

    /// The session's new name, if one was given.
    package let sessionName: String?

    package init(sessionName: String?) { self.sessionName = sessionName }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        guard !arguments.isEmpty else { return Self(sessionName: nil) }
        do { return Self(sessionName: try SessionStore.validName(arguments)) } catch {
            throw CommandError(error.errorDescription ?? "That name cannot be used.")
        }
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        do {
            let written = try await run.engine.save()
            if written > 0 {
                run.host.show(StyledText("Wrote the \(counted(written, "change")) that could not be saved before; nothing is lost."))
            }
            if let sessionName {
                try await run.engine.rename(sessionName)
                run.host.show(StyledText("Saved as “\(sessionName)”; `lessonplan resume \"\(sessionName)\"` reopens it."))
            } else if written == 0 {
                run.host.show(StyledText("Everything is saved already; /save <name> also names the session."))
            }
            return .done
        } catch {
            run.host.error(error.message)
            return .failed
        }
    }
}
