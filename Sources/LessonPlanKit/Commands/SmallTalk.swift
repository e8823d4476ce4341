import Foundation
import LessonPlanCore

/// Lines that read as talk to the tool or as a shell command, not as a change to the plan, so they
/// are never sent as a paid revision unasked (`thanks`, `ok`, `ls`, `git status`).
///
/// The rule: a line without a slash of one or two words is small talk when its first word is a shell
/// command below, or when every word is one of the words below. Anything else is an instruction and is
/// sent (`shorter`, `more hands-on`, `add a game`), and `/revise …` always is.
package enum SmallTalk {
    /// Shell commands a person types into the wrong window; the word after them does not matter.
    package static let shellCommands: Set<String> = [
        "ls", "ll", "la", "dir", "cd", "pwd", "cls", "clear", "git", "vim", "vi", "nano", "emacs", "sudo",
        "whoami", "mkdir", "rm", "cp", "mv", "python", "python3", "swift", "npm", "node", "logout", "reset",
    ]

    /// Greetings, thanks, acknowledgements and the like: a line made only of these says nothing to change.
    package static let words: Set<String> = [
        "thanks", "thank", "thankyou", "thx", "ty", "cheers", "you", "so", "much", "very",
        "ok", "okay", "k", "kk", "fine", "great", "good", "nice", "cool", "perfect", "awesome", "excellent",
        "wonderful", "lovely", "brilliant", "super", "got", "it", "alright", "sure", "right",
        "yes", "yeah", "yep", "yup", "no", "nope", "nah", "y", "n",
        "hello", "hi", "hey", "hiya", "yo", "there", "morning", "afternoon", "evening", "bye", "goodbye", "cya",
        "lol", "hmm", "hm", "huh", "wow", "oops", "sorry", "please", "test", "testing", "ping",
    ]

    /// Whether `line` is small talk by the rule above.
    package static func matches(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.hasPrefix("/") else { return false }
        let words = trimmed.lowercased().split(whereSeparator: \.isWhitespace).map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: ".,!?;:'\"“”‘’…"))
        }
        guard (1...2).contains(words.count), let first = words.first else { return false }
        if shellCommands.contains(first) { return true }
        let spoken = words.filter { !$0.isEmpty }
        return !spoken.isEmpty && spoken.allSatisfy { Self.words.contains($0) }
    }

    /// The question a terminal gets before small talk is sent as a revision.
    package static func question(_ line: String) -> String {
        "Send “\(TerminalSanitizer.cleanLine(line.trimmingCharacters(in: .whitespacesAndNewlines), limit: 40))” to the model as a revision? [y/N] "
    }

    /// Why small talk is refused where nobody can be asked (a script, `--then`).
    package static func refusal(_ line: String) -> String {
        let shown = TerminalSanitizer.cleanLine(line.trimmingCharacters(in: .whitespacesAndNewlines), limit: 40)
        return "not sent: it does not read as a change to the plan; write /revise \(shown) to send it."
    }
}
