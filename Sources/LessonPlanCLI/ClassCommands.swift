import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanStore
import Terminal

/// `class add|list|show|rm`: class lists on this machine. None needs a key; nothing here is sent anywhere.
struct ClassCommands {
    let app: App
    var console: Console { app.console }

    private var classes: ClassStore { ClassStore(directory: DataDirectory.resolve(environment: app.environment)) }

    func run(_ parsed: ParsedArguments) -> Int32 {
        let words = parsed.positionals
        switch (words.first?.lowercased(), words.count) {
        case ("add", 3): return add(words[1], from: words[2])
        case ("list", 1), (nil, 0): return list()
        case ("show", 2): return show(words[1])
        case ("rm", 2): return remove(words[1], yes: parsed.has("yes"))
        default:
            console.error("class: use `lessonplan class add NAME FILE` (or - for stdin), `class list`, `class show NAME` or `class rm NAME`.")
            return 2
        }
    }

    private func add(_ name: String, from source: String) -> Int32 {
        guard ClassStore.isValidName(name) else {
            console.error(ClassStore.Failure.badName(name).errorDescription ?? "")
            return 2
        }
        let text: String
        if source == "-" {
            if console.stdinIsTTY { console.note("Type or paste the class, one student a line (name, then needs after a comma); Ctrl-D ends it.") }
            text = String(decoding: FileHandle.standardInput.readData(ofLength: 1 << 20), as: UTF8.self)
        } else {
            do {
                text = String(decoding: try PrivateFiles.read(URL(fileURLWithPath: source), followLinks: true, limit: 1 << 20), as: UTF8.self)
            } catch {
                console.error(error.message)
                return 1
            }
        }
        do {
            let entries = try ClassRoster.parse(text)
            var roster = (try? classes.load(name)) ?? ClassRoster(name: name)
            let before = roster.students.count
            roster.add(entries)
            try classes.save(roster)
            let added = roster.students.count - before
            console.line(
                "Class \(roster.name): \(counted(roster.students.count, "student")) (\(added) added), \(roster.withNeeds.count) with needs; kept in \(classes.folder.path), readable by you only. Tie a session to it with --class \(roster.name) or /class \(roster.name)."
            )
            return 0
        } catch {
            console.error(error.message)
            return error is ClassRoster.ParseError ? 2 : 1
        }
    }

    private func list() -> Int32 {
        let names = classes.names()
        guard !names.isEmpty else {
            console.line("No classes yet; add one with `lessonplan class add NAME FILE` (a CSV of name,needs, or one name a line).")
            return 0
        }
        for name in names {
            guard let roster = try? classes.load(name) else {
                console.error("\(name): the class file cannot be read.")
                continue
            }
            console.line("\(roster.name)\t\(counted(roster.students.count, "student"))\t\(roster.withNeeds.count) with needs")
        }
        return 0
    }

    private func show(_ name: String) -> Int32 {
        do {
            let roster = try classes.load(name)
            console.line("Class \(roster.name), \(counted(roster.students.count, "student")); requests carry the pseudonym, never the name.")
            for student in roster.students {
                let needs = student.needs.isEmpty ? "" : "\t" + student.needs.joined(separator: "; ")
                console.line("\(student.pseudonym)\t\(student.name)\(needs)")
            }
            return 0
        } catch {
            console.error(error.message)
            return 1
        }
    }

    private func remove(_ name: String, yes: Bool) -> Int32 {
        do {
            let roster = try classes.load(name)
            if let status = SessionCommands(app: app).confirm(
                "Remove class \(roster.name) (\(counted(roster.students.count, "student")))? Sessions tied to it will show pseudonyms instead of names. [y/N] ",
                yes: yes, refusal: "class rm asks first; add --yes to remove \(roster.name) from a script.", declined: "Kept.")
            {
                return status
            }
            try classes.remove(roster.name)
            console.line("Removed class \(roster.name).")
            return 0
        } catch {
            console.error(error.message)
            return 1
        }
    }
}
