import Foundation
import LessonPlanCore

/// What to do next when a session cannot go on here and now, naming the session to come back to.
package enum SessionAdvice {
    /// How to name the session to `lessonplan resume`: its name (quoted when it has spaces), else its id's first 8 digits.
    package static func resumeReference(_ state: SessionState) -> String {
        guard let name = state.name else { return String(state.header.id.prefix(8)) }
        let shown = TerminalSanitizer.cleanLine(name, limit: 60)
        return shown.contains(" ") ? "\"\(shown)\"" : shown
    }

    /// A request without a key: nothing was sent, and the way out is to set the key and resume, not to try again.
    package static func noKey(in state: SessionState) -> String {
        "No API key is set, so nothing was sent; the session is saved. Set the key (export OPENAI_API_KEY=…, "
            + "or api_key in the settings file; or use --endpoint with a proxy that holds it), then "
            + "`lessonplan resume \(resumeReference(state))` goes on from here."
    }

    /// The first screen without a key, before any question: there is none, and the three ways on.
    /// - Parameters:
    ///   - settingsFile: the settings file's path for this environment.
    ///   - resuming: the session being resumed, which is kept; nil when nothing was saved.
    package static func noKeyWaysOn(settingsFile: String, resuming: SessionState? = nil) -> String {
        let saved = resuming == nil ? ", and nothing was saved" : ""
        let then = resuming.map { "Then `lessonplan resume \(resumeReference($0))` goes on from here." } ?? "Then run the same command again."
        return """
            No API key is set, so lessonplan cannot write a plan yet\(saved). Three ways on:
              1. Your own OpenAI key: export OPENAI_API_KEY=sk-…, or put api_key = sk-… in \(settingsFile) (chmod 600 it).
              2. Offline on this machine: lessonplan --local, after scripts/local-model install in the project's folder \
            (a 127 MB download, under a minute; nothing is compiled). The model is tiny: its plans have the right \
            shape and rough content, 5 to 10 s each on a quiet machine; for trying the tool, not for class. With \
            --model 1.5b it installs Qwen2.5-Coder-1.5B instead: about 1.1 GB, plans a teacher can start from.
              3. A school's proxy: lessonplan --endpoint URL with the token the school gave you (LESSONPLAN_TOKEN, or \
            endpoint and token in the settings file).
            \(then)
            """
    }

    /// The line before a session's first offline plan: what the model is, what it is for, and the way to real plans.
    /// - Parameter model: the model name `--local` asks for (the installed one, see ``OfflineModel``).
    package static func offlineIntro(model: String) -> String {
        guard model.hasPrefix("Qwen2.5-Coder-1.5B") else {
            return "Offline model: SmolLM2-135M, a tiny model running on this machine, for trying the tool, not for class "
                + "(its plans have the right shape and rough content). For plans you can teach from, set OPENAI_API_KEY, "
                + "use your school's --endpoint, or install the larger offline model (scripts/local-model install --model 1.5b)."
        }
        return "Offline model: Qwen2.5-Coder-1.5B, running on this machine (a minute or more a plan on 2 cores, longer when they are busy): "
            + "its plans are on the topic and need a teacher's editing. For better plans, set OPENAI_API_KEY or use "
            + "your school's --endpoint."
    }

    /// Why a command that needs a plan cannot run when no request can be sent either: where to get a model.
    package static let noPlanNoKey =
        "there is no plan yet, and writing one needs a model: set OPENAI_API_KEY (or api_key in the settings file), "
        + "or leave and start again with --local or --endpoint; then /generate."
}
