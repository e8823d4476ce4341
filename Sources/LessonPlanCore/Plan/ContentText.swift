import Foundation

/// The words the content check reads plans by, each list data in `prompts/`: the verbs that make an objective
/// observable (`observable-verbs.txt`), the verbs that open a task (`task-verbs.txt`) and the things a teacher
/// hands out (`material-nouns.txt`).
package struct CheckWords: Equatable, Sendable {
    /// Stems of the verbs that count.
    package var counted: Set<String>
    /// Stemmed word sequences that never count ("understand", "learn about").
    package var excluded: [[String]]
    /// Stems of the words that open a task students answer, in English and the languages lessons teach.
    package var tasks: Set<String>
    /// Stems of the things to hand out that Materials must list.
    package var materials: Set<String>

    package init(counted: Set<String>, excluded: [[String]], tasks: Set<String> = [], materials: Set<String> = []) {
        self.counted = counted
        self.excluded = excluded
        self.tasks = tasks
        self.materials = materials
    }

    /// Reads the three files: one word a line, `not:` lines (verbs only) for verbs that never count, `#` lines ignored.
    package init(verbs: String, tasks: String = "", materials: String = "") {
        var counted: Set<String> = []
        var excluded: [[String]] = []
        for line in Self.entries(verbs) {
            if line.lowercased().hasPrefix("not:") {
                let words = ContentText.words(String(line.dropFirst(4))).map(ContentText.stem)
                if !words.isEmpty { excluded.append(words) }
            } else if let word = ContentText.words(line).first {
                counted.insert(ContentText.stem(word))
            }
        }
        self.init(
            counted: counted, excluded: excluded, tasks: Self.stems(tasks), materials: Self.stems(materials))
    }

    /// The first word's stem of every entry.
    private static func stems(_ text: String) -> Set<String> {
        Set(entries(text).compactMap { ContentText.words($0).first.map(ContentText.stem) })
    }

    /// The lines that are entries: trimmed, neither blank nor `#` comments.
    private static func entries(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The built-in lists, used for each file a prompts folder does not have.
    package static let builtIn = CheckWords(
        verbs: EmbeddedPrompts.files["observable-verbs.txt"] ?? "", tasks: EmbeddedPrompts.files["task-verbs.txt"] ?? "",
        materials: EmbeddedPrompts.files["material-nouns.txt"] ?? "")
}

/// Normalising and stemming for the content check, so "Fractions," and "fraction" compare equal.
package enum ContentText {
    /// Lower-case words of letters and digits, accents folded, every other character a separator.
    package static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return folded.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    /// A line as compared for repetition: its words joined by single spaces.
    package static func normalised(_ text: String) -> String {
        words(text).joined(separator: " ")
    }

    /// A simple stem: plural and verb endings off, a final `e` dropped (`lines`, `lined`, `line` → `lin`).
    package static func stem(_ word: String) -> String {
        var word = word
        if word.hasSuffix("'s") || word.hasSuffix("’s") { word = String(word.dropLast(2)) }
        if word.count > 4, word.hasSuffix("ies") {
            word = String(word.dropLast(3)) + "y"
        } else if word.count > 4, word.hasSuffix("sses") {
            word = String(word.dropLast(2))
        } else if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss"), !word.hasSuffix("us"), !word.hasSuffix("is") {
            word = String(word.dropLast())
        }
        for suffix in ["ing", "ed"] where word.count > suffix.count + 3 && word.hasSuffix(suffix) {
            word = String(word.dropLast(suffix.count))
            break
        }
        if word.count > 3, word.hasSuffix("e") { word = String(word.dropLast()) }
        return word
    }

    /// Words that carry no content of their own: function words and the words every plan uses.
    static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "but", "of", "on", "in", "into", "to", "for", "with", "by", "at", "from",
        "as", "is", "are", "be", "been", "was", "were", "it", "its", "this", "that", "these", "those", "their",
        "them", "they", "we", "our", "you", "your", "i", "my", "me", "he", "she", "his", "her", "will", "can",
        "could", "would", "should", "may", "might", "must", "do", "does", "did", "have", "has", "had", "not",
        "no", "yes", "so", "if", "then", "than", "there", "here", "what", "which", "who", "whom", "whose",
        "why", "how", "when", "where", "one", "two", "three", "each", "every", "all", "some", "any", "more",
        "most", "about", "up", "out", "over", "under", "after", "before", "between", "through", "also", "just",
        "very", "too", "students", "student", "grade", "grades", "lesson", "lessons", "class", "teacher",
        "able", "will", "today", "introduction", "intro", "basics", "overview", "beginners", "unit", "topic",
        "understanding", "using", "use", "k", "vs", "versus", "s", "t",
    ]

    /// The stems of a text's content words, stop words and numbers left out.
    package static func contentStems(_ text: String) -> Set<String> {
        Set(words(text).filter { !stopWords.contains($0) && !$0.allSatisfy(\.isNumber) && $0.count > 1 }.map(stem))
    }
}
