import Foundation

/// What to do next when a session cannot go on here and now, naming the session to come back to.
public enum SessionAdvice {
    /// How to name the session to `lessonplan resume`: its name (quoted when it has spaces), else its id's first 8 digits.
    public static func resumeReference(_ state: SessionState) -> String {
        guard let name = state.name else { return String(state.header.id.prefix(8)) }
        let shown = TerminalSanitizer.cleanLine(name, limit: 60)
        return shown.contains(" ") ? "\"\(shown)\"" : shown
    }

    /// A request without a key: nothing was sent, and the way out is to set the key and resume, not to try again.
    public static func noKey(in state: SessionState) -> String {
        "No API key is set, so nothing was sent; the session is saved. Set the key (export OPENAI_API_KEY=…, "
            + "or api_key in the settings file; or use --endpoint with a proxy that holds it), then "
            + "`lessonplan resume \(resumeReference(state))` goes on from here."
    }

    /// The REPL's first words when it starts without a key: quit, set the key, come back.
    public static func noKeyAtStart(in state: SessionState) -> String {
        "No API key is set, so no plan was written; the session is saved. Type /quit, set the key (export "
            + "OPENAI_API_KEY=…, or api_key in the settings file; or use --endpoint with a proxy that holds it), then "
            + "`lessonplan resume \(resumeReference(state))` and /generate."
    }
}
