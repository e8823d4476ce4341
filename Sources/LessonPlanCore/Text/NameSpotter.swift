import Foundation

/// Spots words in a teacher's text that look like a student's first name.
///
/// A word counts when it is capitalised (an upper-case letter, then not another: "Jonah", "DeShawn", never
/// "IEP"), its lower-case form is on the list (accents kept; "Jonah's" and "Jonah’s" read as "Jonah"; a
/// hyphenated "Mary-Kate" by its first part when every part is capitalised), and it does not stand in a longer
/// capitalised phrase: a full name or a title such as "Rosa Parks", "Martin Luther King Jr.", "Lincoln's
/// Gettysburg Address", "Lake Michigan", "John F. Kennedy", "Leonardo da Vinci", or one after a title ("Mr. Lee",
/// "St. Louis", "King Arthur"). The first word of a sentence or line joins the word after it only when it is
/// itself a name or a title, so "Give Jamal extra time." still counts. Ordinary words, places and the like are
/// kept out of the list itself (`prompts/first-names.txt`), which keeps the check conservative.
package struct NameSpotter: Sendable {
    /// The listed names, lower-cased.
    private let listed: Set<String>

    /// Reads the list: one name a line; `#` lines and blank lines ignored.
    package init(names: String) {
        listed = Set(
            names.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }.map { $0.lowercased() })
    }

    /// The built-in list, `prompts/first-names.txt` as compiled in.
    package static let builtIn = NameSpotter(names: EmbeddedPrompts.files["first-names.txt"] ?? "")

    /// Whether `name` (any case) is on the list.
    package func lists(_ name: String) -> Bool { listed.contains(name.lowercased()) }

    /// The words that look like a student's name, each once, in order of first appearance, as written (possessive 's / ’s stripped).
    /// `known`: names to ignore (already on the class list, compared case-insensitively).
    package func names(in text: String, ignoring known: Set<String> = []) -> [String] {
        let known = Set(known.map { $0.lowercased() })
        let words = Self.words(in: text)
        guard !words.isEmpty else { return [] }
        let isName = words.map { isListedName($0) }
        // linked[i]: words[i] carries on a capitalised phrase begun by words[i - 1].
        var linked = [Bool](repeating: false, count: words.count)
        for index in words.indices.dropFirst() {
            linked[index] = Self.carriesOn(words[index], after: words[index - 1], linked: linked[index - 1], previousIsName: isName[index - 1])
        }
        // An initial is part of a name only with a surname after it: "John F. Kennedy", but "Jonah B." is a student.
        for index in words.indices.reversed() where linked[index] && Self.isInitial(words[index]) {
            linked[index] = index + 1 < words.count && linked[index + 1]
        }
        var found: [String] = []
        var seen: Set<String> = []
        for (index, word) in words.enumerated() where isName[index] {
            let key = word.text.lowercased()
            guard !known.contains(key), !known.contains(word.parts[0].lowercased()) else { continue }
            if linked[index] || (index + 1 < words.count && linked[index + 1]) { continue }
            if Self.joinedByParticle(words, at: index, isName: isName) { continue }
            if seen.insert(key).inserted { found.append(word.text) }
        }
        return found
    }

    // MARK: - Reading the text

    /// What stands between a word and the one before it.
    enum Gap: Equatable {
        /// Horizontal spaces only: the two may be one phrase.
        case spaces
        /// A full stop and spaces, as after "Mr." or the initial in "John F. Kennedy".
        case fullStop
        /// Anything else: a comma, a quotation mark, a line break, nothing (the first word).
        case other
    }

    /// A word as read: letters and digits, with apostrophes and hyphens inside it.
    struct Word {
        /// As written, a possessive 's / ’s taken off.
        var text: String
        /// The parts between hyphens (one for most words).
        var parts: [Substring]
        var gapBefore: Gap
        /// The first word of the text, a line, or a sentence (after `.`, `!`, `?`, `:` or `…`).
        var startsSentence: Bool
        /// A full stop straight after it ("F." in "John F. Kennedy").
        var fullStopAfter: Bool
    }

    static func words(in text: String) -> [Word] {
        let characters = Array(text)
        var words: [Word] = []
        var index = 0
        var gapStart = 0
        while index < characters.count {
            guard isWordCharacter(characters[index]) else {
                index += 1
                continue
            }
            let start = index
            index += 1
            while index < characters.count {
                if isWordCharacter(characters[index]) {
                    index += 1
                } else if isJoiner(characters[index]), index + 1 < characters.count, characters[index + 1].isLetter {
                    index += 2
                } else {
                    break
                }
            }
            let gap = characters[gapStart..<start]
            var written = String(characters[start..<index])
            for suffix in ["'s", "’s", "ʼs"] where written.hasSuffix(suffix) && written.count > 2 {
                written = String(written.dropLast(2))
            }
            let parts = written.split(omittingEmptySubsequences: false) { $0 == "-" || $0 == "‐" }
            let gapKind: Gap =
                words.isEmpty
                ? .other
                : gap.allSatisfy(isSpace)
                    ? .spaces
                    : gap.first == "." && gap.dropFirst().allSatisfy(isSpace) ? .fullStop : .other
            let startsSentence = words.isEmpty || gap.contains { $0.isNewline || ".!?:…".contains($0) }
            words.append(
                Word(
                    text: written, parts: parts, gapBefore: gapKind, startsSentence: startsSentence,
                    fullStopAfter: index < characters.count && characters[index] == "."))
            gapStart = index
        }
        return words
    }

    private static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }
    private static func isJoiner(_ character: Character) -> Bool { "'’ʼ-‐".contains(character) }
    private static func isSpace(_ character: Character) -> Bool { character.isWhitespace && !character.isNewline }

    // MARK: - Deciding

    /// An upper-case letter, then not another, and some lower-case letter: "Jonah", "DeShawn", "O'Neil";
    /// not "IEP", "I", "iPad".
    static func isCapitalised(_ word: Substring) -> Bool {
        guard let first = word.first, first.isUppercase, word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        return !second.isUppercase && word.contains(where: \.isLowercase)
    }

    /// Capitalised and on the list: the whole word, or a hyphenated one's first part when every part is capitalised.
    private func isListedName(_ word: Word) -> Bool {
        guard Self.isCapitalised(word.parts[0]) else { return false }
        if listed.contains(word.text.lowercased()) { return true }
        return word.parts.count > 1 && listed.contains(word.parts[0].lowercased()) && word.parts.allSatisfy(Self.isCapitalised)
    }

    /// A single capital letter with a full stop after it: an initial, "F." in "John F. Kennedy".
    private static func isInitial(_ word: Word) -> Bool {
        word.text.count == 1 && word.text.first?.isUppercase == true && word.fullStopAfter
    }

    private static func isTitle(_ word: Word) -> Bool {
        guard let first = word.text.first, first.isUppercase else { return false }
        return titles.contains(word.text.lowercased())
    }

    /// A capitalised word that may be part of a name: not one of the capitalised ordinary words.
    private static func isNamePart(_ word: Word) -> Bool {
        (isCapitalised(word.parts[0]) && !ordinaryCapitalised.contains(word.text.lowercased())) || isInitial(word)
    }

    /// Whether `word` carries on the capitalised phrase of `previous`: both capitalised with only spaces between,
    /// `previous` a title, or `previous` an initial that itself stands in a name ("J. K. Rowling"). A first word of
    /// a sentence starts a phrase only when it is a name, a title or an initial ("Give Jamal" is no phrase).
    private static func carriesOn(_ word: Word, after previous: Word, linked: Bool, previousIsName: Bool) -> Bool {
        guard isNamePart(word) else { return false }
        switch word.gapBefore {
        case .other:
            return false
        case .fullStop:
            return isTitle(previous) || (isInitial(previous) && (linked || previous.startsSentence))
        case .spaces:
            if isTitle(previous) { return true }
            guard isNamePart(previous) else { return false }
            return !previous.startsSentence || previousIsName || isInitial(previous)
        }
    }

    /// Whether the name at `index` is joined by a particle to a capitalised word: "Leonardo da Vinci",
    /// "Joan of Arc", "Vincent van Gogh" (either side of the particle).
    private static func joinedByParticle(_ words: [Word], at index: Int, isName: [Bool]) -> Bool {
        if index + 2 < words.count, words[index + 1].gapBefore == .spaces, words[index + 2].gapBefore == .spaces,
            particles.contains(words[index + 1].text), isNamePart(words[index + 2])
        {
            return true
        }
        if index >= 2, words[index].gapBefore == .spaces, words[index - 1].gapBefore == .spaces,
            particles.contains(words[index - 1].text)
        {
            let before = words[index - 2]
            return isNamePart(before) && (!before.startsSentence || isName[index - 2])
        }
        return false
    }

    /// Titles that make the capitalised word after them part of a name, lower-cased (matched when capitalised).
    static let titles: Set<String> = [
        "mr", "mrs", "ms", "mx", "miss", "mister", "madam", "dr", "doctor", "prof", "professor", "sir", "dame", "lady",
        "lord", "saint", "st", "ste", "san", "santa", "santo", "são", "king", "queen", "prince", "princess",
        "emperor", "empress", "tsar", "czar", "sultan", "pharaoh", "pope", "president", "pres", "senator", "sen",
        "governor", "gov", "mayor", "judge", "justice", "general", "gen", "captain", "capt", "colonel", "col",
        "lieutenant", "lt", "sergeant", "sgt", "admiral", "officer", "chief", "coach", "father", "fr", "sister",
        "brother", "uncle", "aunt", "auntie", "grandma", "grandpa", "rabbi", "imam", "reverend", "rev", "pastor",
        "mount", "mt", "lake", "fort", "cape", "port",
    ]

    /// Lower-case words that join the names either side of them into one ("da Vinci", "van Gogh", "of Arc").
    static let particles: Set<String> = [
        "da", "de", "del", "della", "der", "di", "dos", "das", "du", "van", "von", "den", "ter", "bin", "ibn",
        "al", "el", "la", "le", "of",
    ]

    /// Capitalised words a teacher writes beside a student's name that are no part of it ("Maria's Spanish
    /// homework", "Jonah Monday"): languages, school subjects, days and months, lower-cased.
    static let ordinaryCapitalised: Set<String> = [
        "english", "spanish", "french", "german", "chinese", "mandarin", "cantonese", "japanese", "korean",
        "vietnamese", "arabic", "hebrew", "hindi", "urdu", "bengali", "punjabi", "tagalog", "portuguese", "italian",
        "russian", "polish", "somali", "swahili", "creole", "latin", "greek", "american", "math", "maths", "science",
        "history", "reading", "writing", "art", "music", "geometry", "algebra", "biology", "chemistry", "physics",
        "geography", "civics", "economics", "health", "social", "monday", "tuesday", "wednesday", "thursday",
        "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july", "august",
        "september", "october", "november", "december",
    ]
}
