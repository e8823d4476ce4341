import Foundation
import LessonPlanCore
import LessonPlanStore

/// A word in the teacher's own text that looks like a student's name and is not on the session's class list:
/// asked about before anything is sent (send as written, add to the class, or cancel); a script is told and
/// sends nothing unless `--yes`.
package enum UnlistedNames {
    /// The teacher's choice for names the spotter found.
    package enum Choice: Equatable, Sendable {
        case send, add, cancel
    }

    /// The words of `text` that look like a student's name and are not on the class list.
    package static func spotted(in text: String, names: ClassNames, prompts: PromptLibrary) -> [String] {
        var known: Set<String> = ["student"]
        for student in names.roster?.students ?? [] {
            known.insert(student.name.lowercased())
            for part in student.name.split(separator: " ") { known.insert(part.lowercased()) }
        }
        return prompts.nameSpotter.names(in: text, ignoring: known)
    }

    /// "“Jonah” looks like a student's name and is not on class 4B's list", for one name or several.
    package static func sentence(_ found: [String], className: String?) -> String {
        let quoted = found.prefix(4).map { "“\(TerminalSanitizer.cleanLine($0, limit: 40))”" }.joined(separator: ", ")
        let more = found.count > 4 ? " and \(found.count - 4) more" : ""
        let what = found.count == 1 ? "looks like a student's name" : "look like students' names"
        let list = className.map { "class \($0)'s list" } ?? "a class list (no class is tied to this session)"
        return "\(quoted)\(more) \(what) and \(found.count == 1 ? "is" : "are") not on \(list)."
    }

    /// The question at a terminal, with the choices there are.
    package static func question(className: String?) -> String {
        className.map { "Send as written, add to class \($0) (sent as a pseudonym), or cancel? [s/a/C] " }
            ?? "Send as written, or cancel? [s/C] "
    }

    /// Reads an answer: `s`/`send`, `a`/`add` (only with a class), anything else cancels.
    package static func choice(_ answer: String, hasClass: Bool) -> Choice {
        let word = answer.trimmingCharacters(in: .whitespaces).lowercased()
        if word == "s" || word == "send" { return .send }
        if hasClass, word == "a" || word == "add" { return .add }
        return .cancel
    }

    /// What a script is told when it would send such names.
    package static func scriptRefusal(_ found: [String], className: String?) -> String {
        let them = found.count == 1 ? "it" : "them"
        let fix =
            className.map { "add \(them) to the class (`lessonplan class add \($0) -`, one name a line)" }
            ?? "tie the session to a class (--class NAME)"
        return sentence(found, className: className) + " Nothing was sent; \(fix), or add --yes to send \(them) as written."
    }

    /// Carries out the teacher's `answer` to ``question(className:)``: for `add`, `found` join the class (saved, and
    /// the session tied to the new map) before anything is sent. The choice tells the caller what to say and whether
    /// to send.
    /// - Throws: ``ClassStore/Failure`` when the class cannot be saved (nothing is sent then).
    package static func settle(
        _ answer: String, found: [String], names: ClassNames, store: ClassStore, prompts: PromptLibrary
    ) throws(ClassStore.Failure) -> Choice {
        let choice = choice(answer, hasClass: names.value != nil)
        if choice == .add { try add(found, to: names, store: store, prompts: prompts) }
        return choice
    }

    /// Adds `found` to the session's class, saves it, and ties the session to the new map, so they go out as pseudonyms.
    static func add(_ found: [String], to names: ClassNames, store: ClassStore, prompts: PromptLibrary) throws(ClassStore.Failure) {
        guard var roster = names.roster else { return }
        roster.add(found.map { (name: $0, needs: []) })
        try store.save(roster)
        names.set(roster: roster, map: NameMap(roster: roster, ordinaryWords: prompts.ordinaryNameWords))
    }
}
