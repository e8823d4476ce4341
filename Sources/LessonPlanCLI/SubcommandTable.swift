import Foundation
import LessonPlanCore
import LessonPlanKit

/// The `lessonplan` subcommands, listed once as the slash commands are in ``CommandTable``: dispatch, the
/// overview, `help NAME`, `NAME --help` and "did you mean" all read this table.
package enum SubcommandTable {
    /// In the order `lessonplan --help` lists them.
    package static let all: [Subcommand] = [generate, unit, resume, sessions, replay, export, results, standards, classList, doctor, help]

    /// `lessonplan` with no subcommand: a session, its first plan written from the flags.
    package static let session = Subcommand(
        name: "lessonplan", flags: Flags.lesson + Flags.framework + Flags.followUps + Flags.connection + Flags.common,
        forms: [
            Subcommand.Form(
                "lessonplan [--grade BAND] [--topic TEXT] [--minutes N] [options]",
                "Start a session: write the first plan, then refine it with slash commands. At a terminal, inputs you leave out are asked for; a script on stdin gets the defaults (6–8, 45 minutes) and needs --topic."
            )
        ],
        page: .overview
    ) { host, parsed in await host.session(parsed) }

    static let generate = Subcommand(
        name: "generate",
        flags: Flags.lesson + Flags.framework + Flags.followUps + [Flags.then] + Flags.connection + Flags.common,
        forms: [
            Subcommand.Form(
                "lessonplan generate --grade … --topic … --minutes … [--then \"/shorten 30\"]…",
                "one-shot: write a plan, apply each --then command, print the final plan")
        ],
        page: .blocks([
            .text("Usage: lessonplan generate --grade BAND --topic TEXT [--minutes N] [--then COMMAND]… [options]"),
            .text(
                "Writes a plan, applies each --then command in order (e.g. --then \"/shorten 30\" --then \"/regrade 3–5\"), prints the final plan on stdout and progress on stderr, and saves the session. Every --then command is checked before anything is sent; the run stops at the first that fails. Exits 0 on success, 1 when a step fails, 2 for bad usage (nothing sent). Defaults: grade 6–8, 45 minutes; the topic is required."
            ),
            .text(
                "Each plan's check goes to stderr; a plan that fails it is repaired once unless --no-repair. With --then /materials last, the handouts are printed instead of the plan; with /quiz last, the quiz with its key; with /rubric last, the rubric as a table; with /review last, the review."
            ),
            .flags(nil),
        ])
    ) { host, parsed in await host.generate(parsed) }

    static let unit = Subcommand(
        name: "unit",
        flags: Flags.lesson + Flags.unit + Flags.framework + Flags.followUps + Flags.connection + Flags.common,
        forms: [
            Subcommand.Form(
                "lessonplan unit --grade … --topic … --lessons N --minutes M [--framework …]",
                "a unit of N lessons (2–15) in one session: an overview, then every lesson a full plan, each checked")
        ],
        page: .blocks([
            .text("Usage: lessonplan unit --grade BAND --topic TEXT --lessons N [--minutes M] [--standards TEXT] [--framework NAME] [options]"),
            .text(
                "Writes a unit of N lessons (2 to 15), each M minutes, as one saved session: first an overview (the unit's goal, essential questions, and for each lesson a title, an objective and what it builds on), checked by code (N lessons, each with a title and an objective, no two alike) and repaired once when it fails; then each lesson as a whole plan, written with the overview and the objectives of the lessons before it, checked and repaired like any plan (not with --no-repair). Progress (\"lesson 2 of 5 · 40 s so far\") and each plan's check go to stderr; the overview with each lesson's check goes to stdout. Ctrl-C stops the lesson being written and keeps the lessons before it: `lessonplan resume <session>` and /continue write the rest. In the session, /unit shows the unit, /lesson N makes lesson N the current plan, and /export unit \(ExportTable.formats(.unit)) exports the whole unit. Exits 0 when every lesson was written, 1 when one was not, 2 for bad usage (nothing sent)."
            ),
            .flags(nil),
        ])
    ) { host, parsed in await host.unit(parsed) }

    static let resume = Subcommand(
        name: "resume",
        flags: Flags.followUps + Flags.connection + Flags.common,
        forms: [
            Subcommand.Form(
                "lessonplan resume <session>",
                "reopen a saved session at its current version")
        ],
        page: .blocks([
            .text("Usage: lessonplan resume <session> [--model M] [options]"),
            .text(
                "Reopens a saved session (an id, an id prefix or a name; see `lessonplan sessions`) at the version you last saw, with /undo, /history and /diff as before. Without --model it goes on with the model the session was started with, and its plan keeps its framework. A transcript file from elsewhere (`resume ./their.jsonl`, one someone sent) is copied into your sessions (owner-only) as a new session with an id of its own, and the new turns go to that copy, never to the file."
            ),
            .flags(nil),
        ])
    ) { host, parsed in await host.resume(parsed) }

    static let sessions = Subcommand(
        name: "sessions",
        flags: Flags.common + [
            FlagSpec(name: "json", value: nil, help: "print the list as JSON"),
            FlagSpec(name: "yes", value: nil, help: "with rm or prune: remove without asking"),
        ],
        forms: [
            Subcommand.Form(
                "lessonplan sessions [--json] | sessions rm <session> | sessions prune",
                "list saved sessions, remove one, or remove those without a plan")
        ],
        page: .blocks([
            .text(
                """
                Usage: lessonplan sessions [--json]
                       lessonplan sessions rm <session> [--yes]
                       lessonplan sessions prune [--yes]
                """),
            .text(
                "Lists saved sessions, newest first: id, name, created, grade band, minutes, topic, number of versions and the last command. `rm` removes one; `prune` removes every session that never got a plan (0 versions); both ask first at a terminal and need --yes otherwise. A session open in another lessonplan cannot be removed. A session is named by its id, its name, or a unique prefix of either, in any case."
            ),
        ])
    ) { host, parsed in await host.sessions(parsed) }

    static let replay = Subcommand(
        name: "replay",
        flags: Flags.common + Flags.connection + Flags.followUps + [
            FlagSpec(name: "full", value: nil, help: "print whole plans instead of diffs"),
            FlagSpec(name: "turn", value: "N", help: "only turn N"),
            FlagSpec(name: "plain", value: nil, help: "no colour (also when NO_COLOR is set or output is not a terminal)"),
            FlagSpec(name: "step", value: nil, help: "on a terminal, wait for Enter between turns"),
            FlagSpec(name: "rerun", value: nil, help: "run the same commands again against today's model and templates"),
            FlagSpec(name: "yes", value: nil, help: "with --rerun: send more than 3 requests without asking"),
        ],
        forms: [
            Subcommand.Form(
                "lessonplan replay <session> [--full] [--turn N] [--plain] [--step]",
                "walk a session turn by turn with diffs (no key or network needed)"),
            Subcommand.Form(
                "lessonplan replay --rerun <session> [--turn N] [--model M] [--prompts DIR] [--no-repair] [--yes]",
                "run the same commands again today and show how the plans differ"),
        ],
        page: .blocks([
            .text(
                """
                Usage: lessonplan replay <session | file.jsonl> [--full] [--turn N] [--plain] [--step]
                       lessonplan replay --rerun <session> [--turn N] [--model M] [--prompts DIR] [--no-repair] [--yes]
                """),
            .text(
                "Walks a transcript for review: for each turn its number, time, command as typed, model, tokens and status, and the plan as a coloured line diff against the version it revised. Needs no key and no network."
            ),
            .flags(["full", "turn", "plain", "step"]),
            .text(
                "--rerun sends the same commands again, against today's model and prompt templates, into a new session, then shows turn by turn how each new plan differs from the recorded one. This is how a prompt change is reviewed. It needs a key like any request; without --model it uses the recorded session's model. Recorded automatic turns (repairs, reading-level retries) are not sent again: each command gets the automatic turns today's check calls for (none with --no-repair). Only the completed request behind each version is sent (a /retry that made it, once; a /continue as the command it finished); failed and cancelled attempts and hand edits are listed as skipped. Only requests to the model are sent: a recorded command that writes or removes files, or opens an editor or the clipboard (/export, /slides, /save, /edit, /copy…), is listed as skipped and never runs, whoever wrote the transcript. With --turn N, the turns before N run again to rebuild the plan it revised, and only turn N is compared. The key is checked before a new session is made. A re-run of more than 3 requests says how many and asks first at a terminal; elsewhere it sends nothing and exits 2 without --yes."
            ),
        ])
    ) { host, parsed in await host.replay(parsed) }

    static let export = Subcommand(
        name: "export",
        flags: Flags.common + [
            FlagSpec(name: "prompts", value: "DIR", help: "folder of prompt templates whose headings.txt to read"),
            FlagSpec(
                name: "format", value: "\(ExportTable.formats(.plan))",
                help: "Markdown, a printable HTML page, JSON, or (with -o, through pandoc) Word, OpenDocument or slides"),
            FlagSpec(name: "output", value: "FILE", help: "write to FILE instead of stdout", short: "o"),
            FlagSpec(name: "force", value: nil, help: "replace FILE if it exists"),
            FlagSpec(name: "materials", value: nil, help: "export the latest student handouts (/materials) instead of the plan"),
            FlagSpec(name: "show-model", value: nil, help: "name the model in the teacher's header"),
            FlagSpec(
                name: "with", value: "rubric|quiz|starter|exit",
                help: "print a quiz or rubric that did not pass its check, marked on the teacher's copy (else it is left out)"),
            FlagSpec(
                name: "quiz", value: nil,
                help:
                    "a quiz for a learning platform (--quiz 2, --quiz starter: that one; else the newest): --format \(ExportTable.formats(.quiz))",
                optionalValue: { QuizChoice(text: $0) != nil }),
            FlagSpec(name: "unit", value: nil, help: "the whole unit as one document or a cartridge: --format \(ExportTable.formats(.unit))"),
        ],
        forms: [
            Subcommand.Form(
                "lessonplan export <session> --format \(ExportTable.formats(.plan)) [-o FILE] [--force] [--materials | --unit]",
                "the current plan (or its handouts) as Markdown, a printable page, JSON, or a Word, OpenDocument or PowerPoint file; --quiz --format \(ExportTable.formats(.quiz)): the quiz for a learning platform"
            )
        ],
        page: .blocks([
            .text(
                "Usage: lessonplan export <session> --format \(ExportTable.formats(.plan)) [-o FILE] [--force] [--materials] [--show-model] [--with rubric|quiz|starter|exit]"
            ),
            .text(
                """
                  md    the current plan as Markdown: version and local date, pacing, inputs, plan
                  html  one self-contained printable page: the same, with a pacing timeline
                  json  the inputs, every version with its command, the current plan, pacing and check
                  docx  a Word document to edit: real headings and numbered lists, the pacing as a table
                  odt   the same as OpenDocument text (LibreOffice, Google Docs)
                  pptx  slides: one per section, the teacher's lines in the speaker notes
                """),
            .text(
                "Sections and pacing are read with the plan's own framework. A version that fails the plan check is exported with a banner naming its problems. --materials exports the latest student handouts (/materials) instead of the plan, marked when they were made from an older plan version. The quiz and rubric made from the exported plan version (/quiz, /rubric) go in too: the key on a page of its own for the teacher, none on handouts, which get the students' rubric. A quiz or rubric that did not pass its check is left out of every export, with a sentence on stderr saying so and how to ask for a new one; --with rubric (or quiz, starter, exit, several joined by commas) prints it anyway, marked “did not pass its check: …” on the teacher's copy only, and export exits 1 when what --with names cannot be printed (none made from this plan, or a rubric with no rows). A review of the exported version (/review) goes on the teacher's copy only. --show-model names the model in the teacher's header. Without -o, as /export without a file: md and json go to stdout; docx, odt and pptx are written to <topic>-v<N>.<format> in the current folder, and so is html when stdout is a terminal (piped, it is printed). docx, odt and pptx need Debian's pandoc (sudo apt-get install pandoc). PDF is not offered: export html and print it from a browser. An existing FILE is only replaced with --force. In a session, /export [materials] \(ExportTable.formats(.plan)) [FILE] [--force] does the same."
            ),
            .text(
                "--unit --format md|html|docx|odt exports a unit (`lessonplan unit`) as one document: the overview, a contents list, and each lesson as its own part with its pacing and exit ticket; --unit --format imscc exports it as a Common Cartridge with the overview and each written lesson a page (the teacher's); without -o, md is printed and the rest go to <topic>-unit.<format>. In a session, /export unit FORMAT [FILE] does the same."
            ),
            .text(
                "Usage: lessonplan export <session> --quiz [N|starter|exit] --format \(ExportTable.formats(.quiz)) [-o FILE] [--force]"
            ),
            .text(
                "A quiz of the current plan version (the newest, or the one --quiz names as /show quiz names it: its number, starter or exit), for a learning platform: qti (a QTI 1.2 zip for Canvas), imscc (a Common Cartridge with the plan, the handouts and the quizzes: the starter and the exit quiz both, unless --quiz names one), gift, moodle (Moodle XML), aiken, blackboard (the tab-delimited upload) or kahoot (.xlsx). Each wrong answer's student feedback is its feedback where the format has feedback (the teacher's misconception never goes in); what a format cannot carry is named by item before the file is written, and a quiz over Kahoot's limits is refused, never cut. Without -o the file gets a default name in the current folder (<topic>-v<N>-quiz.gift, <topic>-v<N>-lesson.imscc, …). qti and imscc need Debian's zip, kahoot LibreOffice Calc. With no quiz made from the current plan, nothing is written (exit 1): type /quiz in the session. In a session, /export quiz [N|starter|exit] FORMAT [FILE] [--force] does the same. See docs/lms.md."
            ),
        ])
    ) { host, parsed in await host.export(parsed) }

    static let results = Subcommand(
        name: "results",
        flags: Flags.common + [
            FlagSpec(name: "quiz", value: "N|starter|exit", help: "the quiz the counts are for (default: the newest of the current plan)")
        ],
        forms: [
            Subcommand.Form(
                "lessonplan results <session> [FILE|-] [--quiz N|starter|exit]",
                "how many students chose each option: saved with the session, each item's right-answer rate and the misconceptions ranked; then /reteach"
            )
        ],
        page: .blocks([
            .text("Usage: lessonplan results <session> [FILE|-] [--quiz N|starter|exit]"),
            .text(
                "Reads how many students chose each option of a quiz: a CSV of item,option,count (`2,B,9`: nine students chose B on item 2; a header line is skipped, the option may be its letter or its text), Canvas's quiz statistics JSON (the Quiz Statistics API's object: each question's answers with their responses), from FILE, from stdin with -, or typed at the terminal item by item without FILE. Only counts are read and kept: no student's name is needed, and any other column is never read. The counts are saved with the session, and it prints each item's right-answer rate and the misconceptions behind the wrong answers, ranked by how many students chose them (computed by code). In the session, /reteach writes tomorrow's plan around the top ones. Needs no key. Exits 0 when saved, 1 when the counts cannot be read (one sentence naming the line), 2 for bad usage."
            ),
            .flags(nil),
        ])
    ) { host, parsed in host.results(parsed) }

    static let standards = Subcommand(
        name: "standards",
        flags: Flags.common + [
            FlagSpec(name: "grade", value: "G", help: "with search: only standards for this grade or band (4, K, 3-5)"),
            FlagSpec(name: "subject", value: "math|ela|science", help: "with search: only Common Core math, Common Core ELA or NGSS"),
            FlagSpec(name: "about", value: nil, help: "print where the standards come from and the publishers' notices"),
        ],
        forms: [
            Subcommand.Form(
                "lessonplan standards CODE… | standards search WORDS [--grade G] [--subject math|ela|science] | standards --about",
                "a Common Core or NGSS code's real text and grade, codes found by their words, the publishers' notices (no key needed)")
        ],
        page: .blocks([
            .text(
                """
                Usage: lessonplan standards CODE…
                       lessonplan standards search WORDS… [--grade G] [--subject math|ela|science]
                       lessonplan standards --about
                """),
            .text(
                "Prints each code's set, grades and text, word for word, and for an NGSS performance expectation its clarification statement and assessment boundary. A code is read in any usual form and case: 4.NF.1, 4.NF.A.1 and CCSS.MATH.CONTENT.4.NF.A.1 are one standard; RL.5.2; MS-LS1-6. A code that is not a standard gets one sentence naming the closest real ones, same grade and domain first (\"4.NF.9 is not a Common Core standard; 4.NF.A.1 (…) is closest\"), and the exit status is 1. search lists the first 20 standards whose text holds every word. The standards are Common Core Mathematics and English Language Arts and the NGSS performance expectations, compiled into the binary; --about names their source and the notices their publishers ask for. Needs no key and no network."
            ),
            .flags(nil),
        ])
    ) { host, parsed in StandardsLookup.run(parsed, on: host) }

    static let classList = Subcommand(
        name: "class",
        flags: Flags.common + [FlagSpec(name: "yes", value: nil, help: "with rm: remove without asking")],
        forms: [
            Subcommand.Form(
                "lessonplan class add NAME FILE|- | class list | class show NAME | class rm NAME",
                "class lists kept on this machine: students' names go out as pseudonyms (Student A …), needs feed /accommodate")
        ],
        page: .blocks([
            .text(
                """
                Usage: lessonplan class add NAME FILE|-
                       lessonplan class list
                       lessonplan class show NAME
                       lessonplan class rm NAME [--yes]
                """),
            .text(
                "add reads a class list from FILE (or stdin for -): one student a line, a name alone or CSV with the needs after the name (`Maria Lopez,ELL;IEP: extended time` or `Dev Patel,\"504: preferential seating\"`); a header line `name,needs` is skipped. Each student gets a pseudonym (Student A, Student B …) kept with the class, so it never changes; adding again adds new names and replaces the needs of listed ones. The class is a file readable by you only, in the data directory's classes/ folder, and never leaves this machine. show lists each pseudonym, name and needs; rm removes a class (asking first at a terminal, --yes elsewhere); sessions tied to it then show pseudonyms."
            ),
            .text(
                "A session is tied to a class with --class NAME or /class NAME: before every request each student's name, in any case, as a full name, a first name or a possessive, is replaced by the pseudonym, and put back in what you see. The transcript keeps the pseudonyms. See docs/privacy.md."
            ),
            .flags(nil),
        ])
    ) { host, parsed in host.classes(parsed) }

    static let doctor = Subcommand(
        name: "doctor",
        flags: Flags.connection + Flags.common + [
            FlagSpec(name: "show-request", value: nil, help: "print the body of a session's first request as it would be sent, and send nothing")
        ] + Flags.lesson.filter { ["grade", "topic", "minutes", "standards", "constraints", "class"].contains($0.name) } + Flags.framework,
        forms: [
            Subcommand.Form(
                "lessonplan doctor [connection options]",
                "show the effective settings and check the connection with one tiny request"),
            Subcommand.Form(
                "lessonplan doctor --show-request --topic TEXT [--class NAME] [lesson options]",
                "print a first plan's request body exactly as it would go out (pseudonyms and all); nothing is sent"),
        ],
        page: .blocks([
            .text(
                """
                Usage: lessonplan doctor [options]
                       lessonplan doctor --show-request --topic TEXT [--grade BAND] [--minutes N] [--class NAME] [options]
                """),
            .text(
                "Prints the settings a session would use (the API key only as sk-…abcd), then sends one tiny request (\"Say OK.\", 16 output tokens, no retries) to the same URL and reports how long the answer took, or the sentence that says what is wrong. Exits 0 when the model answered, 1 when it did not, 2 for bad flags."
            ),
            .text(
                "--show-request prints, on stdout, the JSON body a session with these flags would send for its first plan, byte for byte as it would go out (with --class, its students' names already swapped for pseudonyms), and sends nothing; the headers, which carry the key, are not printed. See docs/privacy.md."
            ),
            .flags(nil),
        ])
    ) { host, parsed in await host.doctor(parsed) }

    static let help = Subcommand(
        name: "help", flags: nil,
        forms: [Subcommand.Form("lessonplan help [command]", "show help for lessonplan, a subcommand or a slash command")],
        page: .blocks([
            .text("Usage: lessonplan help [command]"),
            .text("Shows help for lessonplan, one of its commands, or a slash command such as shorten."),
        ])
    ) { host, parsed in showHelp(parsed.positionals.first, on: host) }

    /// The subcommand called `name`, if any.
    package static func named(_ name: String) -> Subcommand? {
        all.first { $0.name == name }
    }

    /// Runs one command line on `host`: `--version`, `--help`, a subcommand by its name, or a session.
    /// - Returns: The exit status (0 done, 1 failed, 2 bad usage).
    package static func run(_ arguments: [String], on host: any SubcommandHost) async -> Int32 {
        switch arguments.first {
        case "--version", "-V":
            host.line("lessonplan \(Invocation.version)")
            return 0
        case "--help", "-h":
            host.page(Help.overview())
            return 0
        case let first? where !first.hasPrefix("-"):
            guard let subcommand = named(first) else {
                let shown = TerminalSanitizer.cleanLine(first, limit: 40)
                let advice =
                    CommandTable.nearest(to: first, among: all.map(\.name)).map {
                        "did you mean `lessonplan \($0)`? Run `lessonplan --help` to see them all."
                    } ?? "run `lessonplan --help` to see them."
                host.error("“\(shown)” is not a lessonplan command; \(advice)")
                return 2
            }
            return await subcommand.start(Array(arguments.dropFirst()), on: host)
        default:
            return await session.start(arguments, on: host)
        }
    }

    /// `lessonplan help [topic]`: the overview, a subcommand's page, or a slash command's help.
    static func showHelp(_ topic: String?, on host: any SubcommandHost) -> Int32 {
        // `lessonplan help lessonplan` is the overview, which lists the session's own flags.
        guard let topic, topic != "lessonplan" else {
            host.page(Help.overview())
            return 0
        }
        if let subcommand = named(topic) {
            host.page(subcommand.help)
            return 0
        }
        do {
            host.page(try CommandTable.helpText(for: topic))
            return 0
        } catch {
            host.error("No help for “\(topic)”: it is neither a lessonplan command nor a slash command; run `lessonplan --help`.")
            return 2
        }
    }
}
