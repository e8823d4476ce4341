import Foundation

/// The text of `--help` and `lessonplan help <command>`, built from the same tables as parsing.
/// Paragraphs are single lines here: ``Console/prose(_:)`` wraps them to the terminal's width.
package enum Help {
    package static func overview() -> String {
        """
        lessonplan \(Invocation.version) — write a lesson plan with a language model, then refine it.

        Usage:
          lessonplan [--grade BAND] [--topic TEXT] [--minutes N] [options]
              Start a session: write the first plan, then refine it with slash commands. At a terminal, inputs you leave out are asked for; a script on stdin gets the defaults (6–8, 45 minutes) and needs --topic.
        \(Subcommands.all.map { "  \($0.usage)\n      \($0.summary)" }.joined(separator: "\n"))
          lessonplan --version

        Lesson inputs:
        \(Flags.describe(Flags.lesson))

        Plan quality:
        \(Flags.describe(Flags.framework + Flags.followUps))
          Every plan is checked for structure (headings in order, pacing adds up, warm-up, CFU questions, exit ticket) and content (repeated lines, CFU items that ask nothing, objective verb, topic, materials, placeholders); one with problems or notes is repaired once automatically and the repair kept only if it checks better.

        Connection:
        \(Flags.describe(Flags.connection))

        In the session:
        \(CommandTable.helpText().split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n"))

        Environment:
          OPENAI_API_KEY         the API key (never printed or saved)
          OPENAI_BASE_URL        API base URL (default \(ModelSettings.defaultBaseURL))
          LESSONPLAN_MODEL       default model
          LESSONPLAN_HOME        data directory (else $XDG_DATA_HOME/lessonplan, else ~/.local/share/lessonplan)
          LESSONPLAN_PROMPTS     folder of prompt templates overriding the built-in ones
          LESSONPLAN_LOCAL_PORT  port of the offline model for --local (default \(ModelSettings.defaultLocalPort))
          LESSONPLAN_TOKEN       a teacher's token for a school's proxy (never printed or saved)
          HTTPS_PROXY, NO_PROXY  proxy settings, read by libcurl (see lessonplan doctor)
          NO_COLOR               turn colour off

        Exit status: 0 when every line ran and every turn completed; 1 when a turn did not complete, a command failed or a script line was rejected; 2 for bad usage (nothing was sent); 130 after Ctrl-C while a script waited.

        Settings file ($XDG_CONFIG_HOME/lessonplan/config, else ~/.config/lessonplan/config):
          KEY = value lines, # comments; keys: \(SettingsFile.keys.joined(separator: ", ")). Read only when it is your own file with mode 0600 (chmod 600 it). Flags win over the environment, which wins over the file; `lessonplan doctor` shows where each setting came from.

        """
    }

    package static func subcommand(_ name: String) -> String? {
        switch name {
        case "generate":
            return """
                Usage: lessonplan generate --grade BAND --topic TEXT [--minutes N] [--then COMMAND]… [options]

                Writes a plan, applies each --then command in order (e.g. --then "/shorten 30" --then "/regrade 3–5"), prints the final plan on stdout and progress on stderr, and saves the session. Every --then command is checked before anything is sent; the run stops at the first that fails. Exits 0 on success, 1 when a step fails, 2 for bad usage (nothing sent). Defaults: grade 6–8, 45 minutes; the topic is required.

                Each plan's check goes to stderr; a plan that fails it is repaired once unless --no-repair. With --then /materials last, the handouts are printed instead of the plan; with /quiz last, the quiz with its key; with /rubric last, the rubric as a table; with /review last, the review.

                \(Flags.describe(Flags.lesson + Flags.framework + Flags.followUps + [FlagSpec(name: "then", value: "COMMAND", help: "a slash command or a change in words, applied after the first plan (repeatable)")] + Flags.connection))

                """
        case "unit":
            return """
                Usage: lessonplan unit --grade BAND --topic TEXT --lessons N [--minutes M] [--standards TEXT] [--framework NAME] [options]

                Writes a unit of N lessons (2 to 15), each M minutes, as one saved session: first an overview (the unit's goal, essential questions, and for each lesson a title, an objective and what it builds on), checked by code (N lessons, each with a title and an objective, no two alike) and repaired once when it fails; then each lesson as a whole plan, written with the overview and the objectives of the lessons before it, checked and repaired like any plan (not with --no-repair). Progress ("lesson 2 of 5 · 40 s so far") and each plan's check go to stderr; the overview with each lesson's check goes to stdout. Ctrl-C stops the lesson being written and keeps the lessons before it: `lessonplan resume <session>` and /continue write the rest. In the session, /unit shows the unit, /lesson N makes lesson N the current plan, and /export unit md|html|docx|odt exports the whole unit. Exits 0 when every lesson was written, 1 when one was not, 2 for bad usage (nothing sent).

                \(Flags.describe(Flags.lesson + Flags.unit + Flags.framework + Flags.followUps + Flags.connection))

                """
        case "resume":
            return """
                Usage: lessonplan resume <session> [--model M] [options]

                Reopens a saved session (an id, an id prefix or a name; see `lessonplan sessions`) at the version you last saw, with /undo, /history and /diff as before. Without --model it goes on with the model the session was started with, and its plan keeps its framework.

                \(Flags.describe(Flags.followUps + Flags.connection))

                """
        case "sessions":
            return """
                Usage: lessonplan sessions [--json]
                       lessonplan sessions rm <session> [--yes]
                       lessonplan sessions prune [--yes]

                Lists saved sessions, newest first: id, name, created, grade band, minutes, topic, number of versions and the last command. `rm` removes one; `prune` removes every session that never got a plan (0 versions); both ask first at a terminal and need --yes otherwise. A session open in another lessonplan cannot be removed. A session is named by its id, its name, or a unique prefix of either, in any case.

                """
        case "replay":
            return """
                Usage: lessonplan replay <session | file.jsonl> [--full] [--turn N] [--plain] [--step]
                       lessonplan replay --rerun <session> [--turn N] [--model M] [--prompts DIR] [--no-repair]

                Walks a transcript for review: for each turn its number, time, command as typed, model, tokens and status, and the plan as a coloured line diff against the version it revised. Needs no key and no network.

                  --full    print whole plans instead of diffs
                  --turn N  only turn N
                  --plain   no colour (also when NO_COLOR is set or output is not a terminal)
                  --step    on a terminal, wait for Enter between turns

                --rerun sends the same commands again, against today's model and prompt templates, into a new session, then shows turn by turn how each new plan differs from the recorded one. This is how a prompt change is reviewed. It needs a key like any request; without --model it uses the recorded session's model. Recorded automatic turns (repairs, reading-level retries) are not sent again: each command gets the automatic turns today's check calls for (none with --no-repair). Only the completed request behind each version is sent (a /retry that made it, once; a /continue as the command it finished); failed and cancelled attempts and hand edits are listed as skipped. Only requests to the model are sent: a recorded command that writes or removes files, or opens an editor or the clipboard (/export, /slides, /save, /edit, /copy…), is listed as skipped and never runs, whoever wrote the transcript. With --turn N, the turns before N run again to rebuild the plan it revised, and only turn N is compared. The key is checked before a new session is made.

                """
        case "export":
            return """
                Usage: lessonplan export <session> --format md|html|json|docx|odt|pptx [-o FILE] [--force] [--materials] [--show-model]

                  md    the current plan as Markdown: version and local date, pacing, inputs, plan
                  html  one self-contained printable page: the same, with a pacing timeline
                  json  the inputs, every version with its command, the current plan, pacing and check
                  docx  a Word document to edit: real headings and numbered lists, the pacing as a table
                  odt   the same as OpenDocument text (LibreOffice, Google Docs)
                  pptx  slides: one per section, the teacher's lines in the speaker notes

                Sections and pacing are read with the plan's own framework. A version that fails the plan check is exported with a banner naming its problems. --materials exports the latest student handouts (/materials) instead of the plan, marked when they were made from an older plan version. The quiz and rubric made from the exported plan version (/quiz, /rubric) go in too: the key on a page of its own for the teacher, none on handouts, which get the students' rubric. A review of the exported version (/review) goes on the teacher's copy only. --show-model names the model in the teacher's header. Without -o, as /export without a file: md and json go to stdout; docx, odt and pptx are written to <topic>-v<N>.<format> in the current folder, and so is html when stdout is a terminal (piped, it is printed). docx, odt and pptx need Debian's pandoc (sudo apt-get install pandoc). PDF is not offered: export html and print it from a browser. An existing FILE is only replaced with --force. In a session, /export [materials] md|html|json|docx|odt|pptx [FILE] [--force] does the same.

                --unit --format md|html|docx|odt exports a unit (`lessonplan unit`) as one document: the overview, a contents list, and each lesson as its own part with its pacing and exit ticket; without -o, md is printed and the rest go to <topic>-unit.<format>. In a session, /export unit FORMAT [FILE] does the same.

                Usage: lessonplan export <session> --quiz --format qti|imscc|gift|moodle|aiken|blackboard|kahoot [-o FILE] [--force]

                The quiz made from the current plan version, for a learning platform: qti (a QTI 1.2 zip for Canvas), imscc (a Common Cartridge with the plan, the handouts and the quiz), gift, moodle (Moodle XML), aiken, blackboard (the tab-delimited upload) or kahoot (.xlsx). Each wrong answer's misconception is its feedback where the format has feedback; what a format cannot carry is named by item before the file is written, and a quiz over Kahoot's limits is refused, never cut. Without -o the file gets a default name in the current folder (<topic>-v<N>-quiz.gift, <topic>-v<N>-lesson.imscc, …). qti and imscc need Debian's zip, kahoot LibreOffice Calc. With no quiz made from the current plan, nothing is written (exit 1): type /quiz in the session. In a session, /export quiz FORMAT [FILE] [--force] does the same. See docs/lms.md.

                """
        case "doctor":
            return """
                Usage: lessonplan doctor [options]

                Prints the settings a session would use (the API key only as sk-…abcd), then sends one tiny request ("Say OK.", 16 output tokens, no retries) to the same URL and reports how long the answer took, or the sentence that says what is wrong. Exits 0 when the model answered, 1 when it did not, 2 for bad flags.

                \(Flags.describe(Flags.connection))

                """
        case "help":
            return "Usage: lessonplan help [command]\n\nShows help for lessonplan, one of its commands, or a slash command such as shorten.\n"
        default:
            return nil
        }
    }
}
