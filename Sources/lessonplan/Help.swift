import Foundation
import LessonPlanKit

/// The text of `--help` and `lessonplan help <command>`, built from the same tables as parsing.
enum Help {
    static func overview() -> String {
        """
        lessonplan \(App.version) — write a lesson plan with a language model, then refine it.

        Usage:
          lessonplan [--grade BAND] [--topic TEXT] [--minutes N] [options]
              Start a session: write the first plan, then refine it with slash commands.
              Inputs you leave out are asked for (defaults: 6–8, 45 minutes).
        \(App.subcommands.map { "  \($0.usage)\n      \($0.summary)" }.joined(separator: "\n"))
          lessonplan --version

        Lesson inputs:
        \(Flags.describe(Flags.lesson))

        Connection:
        \(Flags.describe(Flags.connection))

        In the session:
        \(CommandTable.helpText().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n"))

        Environment:
          OPENAI_API_KEY         the API key (never printed or saved)
          OPENAI_BASE_URL        API base URL (default \(ModelSettings.defaultBaseURL))
          LESSONPLAN_MODEL       default model
          LESSONPLAN_HOME        data directory (else $XDG_DATA_HOME/lessonplan, else ~/.local/share/lessonplan)
          LESSONPLAN_PROMPTS     folder of prompt templates overriding the built-in ones
          LESSONPLAN_LOCAL_PORT  port of the offline model for --local (default \(ModelSettings.defaultLocalPort))
          HTTPS_PROXY, NO_PROXY  proxy settings, read by libcurl (see lessonplan doctor)
          NO_COLOR               turn colour off

        """
    }

    static func subcommand(_ name: String) -> String? {
        switch name {
        case "generate":
            return """
                Usage: lessonplan generate --grade BAND --topic TEXT [--minutes N] [--then COMMAND]… [options]

                Writes a plan, applies each --then command in order (e.g. --then "/shorten 30"
                --then "/regrade 3–5"), prints the final plan on stdout and progress on stderr,
                and saves the session. Exits 0 on success, 1 when a turn fails, 2 for bad usage.
                Defaults: grade 6–8, 45 minutes; the topic is required.

                \(Flags.describe(Flags.lesson + [FlagSpec(name: "then", value: "COMMAND", help: "a slash command or a change in words, applied after the first plan (repeatable)")] + Flags.connection))

                """
        case "doctor":
            return """
                Usage: lessonplan doctor [options]

                Prints the settings a session would use (the API key only as sk-…abcd), then sends one
                tiny request ("Say OK.", 16 output tokens, no retries) to the same URL and reports how
                long the answer took, or the sentence that says what is wrong. Exits 0 when the model
                answered, 1 when it did not, 2 for bad flags.

                \(Flags.describe(Flags.connection))

                """
        case "help":
            return "Usage: lessonplan help [command]\n\nShows help for lessonplan, one of its commands, or a slash command such as shorten.\n"
        default:
            return nil
        }
    }
}
