import Foundation
import LessonPlanCore
import LessonPlanStore

/// `/class [NAME]`: ties the session to a class list, so its students' names go out as pseudonyms from here on;
/// alone, says which class the session has.
package struct ClassCommand: Command, Equatable {
    package static let name = "class"
    package static let usage = "/class [NAME]"
    package static let summary = "tie the session to a class list: its students' names go out as pseudonyms (alone: which class)"
    package static let details = """
        A class list is made with `lessonplan class add NAME FILE` and stays on this machine. Once a session is
        tied to one, every request carries each student's pseudonym (Student A …) instead of their name, in any
        case and form, and what you see (the terminal, /show, /diff, exports) shows the names again. The
        transcript holds the pseudonyms. Turns sent before /class went out as they were typed.
        """
    package static let needsPlan = false

    /// The class to tie to; nil shows the session's class.
    package let className: String?

    package init(className: String?) { self.className = className }

    package static func parse(_ arguments: String, context: CommandContext) throws(CommandError) -> Self {
        let name = arguments.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return Self(className: nil) }
        guard ClassStore.isValidName(name) else { throw CommandError(ClassStore.Failure.badName(name).errorDescription ?? "") }
        return Self(className: name)
    }

    package func run(_ run: CommandRun) async -> CommandOutcome {
        let engine = run.engine
        let classes = ClassStore(directory: engine.store.directory)
        guard let className else {
            if let tied = engine.client.names.value {
                let count = tied.map.names.count
                run.host.show(
                    StyledText("This session is tied to class \(tied.name) (\(counted(count, "student"))): their names go out as pseudonyms."))
            } else {
                let known = classes.names()
                run.host.show(
                    StyledText(
                        "This session has no class, so what you type goes out as typed. "
                            + (known.isEmpty
                                ? "Add one with `lessonplan class add NAME FILE`, then /class NAME."
                                : "Tie it to one with /class NAME (\(known.joined(separator: ", "))).")))
            }
            return .done
        }
        do {
            let (roster, map) = try classes.map(className, ordinaryWords: engine.prompts.ordinaryNameWords)
            let earlier = await engine.state.turns.isEmpty ? "" : " Turns before this one went out as they were typed."
            await engine.tie(to: roster, map: map)
            run.host.show(
                StyledText(
                    "Tied to class \(roster.name) (\(counted(roster.students.count, "student"))): from here on their names go out as pseudonyms (Student A …) and come back as names.\(earlier)"
                ))
            return .done
        } catch {
            run.host.error(error.localizedDescription)
            return .failed
        }
    }
}
