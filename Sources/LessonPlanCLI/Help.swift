import Foundation
import LessonPlanCore
import LessonPlanKit
import LessonPlanModel

/// The text of `lessonplan --help`, built from the same tables as parsing: ``SubcommandTable`` for the
/// subcommands (whose own pages are ``Subcommand/help``), ``Flags`` and ``CommandTable``.
/// Paragraphs are single lines here: ``Console/prose(_:)`` wraps them to the terminal's width.
package enum Help {
    package static func overview() -> String {
        """
        lessonplan \(Invocation.version) — write a lesson plan with a language model, then refine it.

        Usage:
        \((SubcommandTable.session.forms + SubcommandTable.all.flatMap(\.forms)).map { "  \($0.usage)\n      \($0.summary)" }.joined(separator: "\n"))
          lessonplan --version

        Lesson inputs:
        \(Flags.describe(Flags.lesson))

        Plan quality:
        \(Flags.describe(Flags.framework + Flags.followUps))
          Every plan is checked for structure (headings in order, pacing adds up, warm-up, CFU questions, exit ticket) and content (repeated lines, CFU items that ask nothing, objective verb, topic, materials, placeholders); one with problems is repaired once automatically and the repair kept only if it checks better; advice is shown, and sent only when you type /repair.

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

        Exit status: 0 when every line ran and every turn completed; 1 when a turn did not complete, a command failed or a script line was rejected; 2 for bad usage (nothing was sent); 130 after Ctrl-C while a script waited or at a first question; 141 when the program reading stdout stopped (| head).

        Settings file ($XDG_CONFIG_HOME/lessonplan/config, else ~/.config/lessonplan/config):
          KEY = value lines, # comments; keys: \(SettingsFile.keys.joined(separator: ", ")). Read only when it is your own file with mode 0600 (chmod 600 it). Flags win over the environment, which wins over the file; `lessonplan doctor` shows where each setting came from.

        """
    }
}
