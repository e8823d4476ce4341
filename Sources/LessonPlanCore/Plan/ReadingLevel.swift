import Foundation

/// Estimates how hard the student-facing text of a plan is to read, so it can be matched to the grade band.
package enum ReadingLevel {
    /// The sections students read themselves: practice tasks, CFU questions and the exit ticket.
    package static let studentFacingHeadings = [
        "Guided Practice", "Independent Practice", "Check for Understanding", "Exit Ticket",
    ]

    /// The Flesch–Kincaid grade, `0.39 × words/sentence + 11.8 × syllables/word − 15.59`; nil without words.
    ///
    /// A word is a whitespace-separated token with at least one letter (numbers are not words). A sentence
    /// ends at `.`, `!` or `?` at the end of a token (closing quotes and brackets allowed) and at every line
    /// break, so list items count as sentences. Abbreviations such as "e.g." end a sentence too. The value
    /// is not clamped: very easy text can score below 0.
    package static func fleschKincaidGrade(_ text: String) -> Double? {
        var words = 0
        var syllableCount = 0
        var sentences = 0
        for line in PlanDocument.lines(of: text) {
            var wordsInSentence = 0
            for token in line.split(whereSeparator: \.isWhitespace) {
                if token.contains(where: \.isLetter) {
                    words += 1
                    wordsInSentence += 1
                    syllableCount += syllables(in: String(token))
                }
                let end = token.trimmingCharacters(in: CharacterSet(charactersIn: "\"'”’)]*_"))
                if wordsInSentence > 0, let last = end.last, ".!?".contains(last) {
                    sentences += 1
                    wordsInSentence = 0
                }
            }
            if wordsInSentence > 0 { sentences += 1 }
        }
        guard words > 0, sentences > 0 else { return nil }
        return 0.39 * Double(words) / Double(sentences) + 11.8 * Double(syllableCount) / Double(words) - 15.59
    }

    /// Syllables in a word by English spelling rules, good enough for a readability estimate.
    ///
    /// Apostrophes are dropped and the word is split at any other non-letter (`think-pair-share` is three
    /// parts); each part with letters counts at least 1, and a token without letters counts 0. In a part:
    /// - Count groups of consecutive vowels. `a e i o u` are vowels; `y` is one unless a vowel follows it
    ///   (`happy`, `rhythm`, but `yes`, `player`, `everyone`).
    /// - Add one where a group holds two sounded vowels: `ia`, `io`, `iu` (`piano`, `radio`) except after
    ///   `c g n s t x` or `ll` (`social`, `nation`, `onion`, `million`); `ua`, `uo` (`actual`) except after
    ///   `q` or `g` (`equal`, `language`); `crea` before `t` other than `creature` (`create`, `creation`);
    ///   and a final `ea` after another vowel group (`idea`, `area`).
    /// - Subtract a silent final `e` after a consonant (`cake`), except `-le` after a consonant (`table`);
    ///   a silent `-es` (`makes`) except after `s x z c g ch sh` or consonant + `l` (`boxes`, `circles`);
    ///   a silent `-ed` except after `t` or `d` (`jumped`, but `wanted`) or consonant + `r` (`hundred`);
    ///   and a silent `e` before the endings `ly ful ment ness less thing times where work` (`lovely`, `homework`).
    /// - Add one for a final `sm` or `thm` (`prism`, `rhythm`).
    package static func syllables(in word: String) -> Int {
        let letters = word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            .filter { $0 != "'" && $0 != "’" }
        return letters.split { !$0.isLetter }.reduce(0) { $0 + syllablesInPart(Array($1)) }
    }

    /// The student-facing lines of a plan, one per line, without list markers, times or teacher-only lines.
    /// - Parameters:
    ///   - plan: The plan text.
    ///   - headings: The framework's expected headings, used to find the sections.
    ///   - studentFacing: Which of those sections students read.
    package static func studentFacingText(
        of plan: String, headings: [String], studentFacing: [String] = studentFacingHeadings
    ) -> String {
        studentFacingText(of: PlanDocument(parsing: plan, headings: headings), studentFacing: studentFacing)
    }

    /// The student-facing lines of a plan already read, in plan order: items and text of the sections students
    /// read, minute stamps taken off, teacher-only lines (answers, look-fors, notes) and sub-headings left out.
    package static func studentFacingText(of document: PlanDocument, studentFacing: [String] = studentFacingHeadings)
        -> String
    {
        var kept: [String] = []
        for section in document.sections where studentFacing.contains(section.heading) {
            for block in document.blocks(of: section) {
                let text: String
                switch block {
                case .item(let item) where item.teacher == nil || item.teacher == .minuteStamp: text = item.text
                case .text(let line) where line.teacher == nil || line.teacher == .minuteStamp: text = line.text
                default: continue
                }
                let cleaned = MinuteText.withoutStamps(text)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "*_").union(.whitespaces))
                if cleaned.contains(where: \.isLetter) { kept.append(cleaned) }
            }
        }
        return kept.joined(separator: "\n")
    }

    /// The student-facing sections a plan has, and those it lacks, so `/level` names only what it measured.
    package static func measuredSections(of document: PlanDocument, studentFacing: [String]) -> (
        present: [String], missing: [String]
    ) {
        let written = Set(document.sections.map(\.heading))
        return (studentFacing.filter(written.contains), studentFacing.filter { !written.contains($0) })
    }

    private static let vowels: Set<Character> = ["a", "e", "i", "o", "u"]

    private static func syllablesInPart(_ w: [Character]) -> Int {
        let n = w.count
        guard n > 0 else { return 0 }
        func isVowel(_ i: Int) -> Bool {
            guard i >= 0, i < n else { return false }
            if vowels.contains(w[i]) { return true }
            return w[i] == "y" && !(i + 1 < n && vowels.contains(w[i + 1]))
        }
        func letter(_ i: Int) -> Character? { i >= 0 && i < n ? w[i] : nil }
        func isConsonant(_ i: Int) -> Bool { i >= 0 && i < n && !isVowel(i) }
        func ends(_ suffix: String) -> Bool { w.count >= suffix.count && String(w.suffix(suffix.count)) == suffix }

        // Groups of consecutive vowels, as index ranges.
        var groups: [Range<Int>] = []
        var i = 0
        while i < n {
            if isVowel(i) {
                var j = i
                while j < n && isVowel(j) { j += 1 }
                groups.append(i..<j)
                i = j
            } else {
                i += 1
            }
        }
        var count = groups.count

        // Two sounded vowels inside one group.
        for group in groups where group.count > 1 {
            for k in group.lowerBound..<(group.upperBound - 1) {
                let (first, second) = (w[k], w[k + 1])
                let before = letter(k - 1)
                if first == "i", "aou".contains(second) {
                    let softened = before.map { "cgnstx".contains($0) } ?? false
                    let doubleL = before == "l" && letter(k - 2) == "l"
                    if !softened && !doubleL { count += 1 }
                } else if first == "u", "ao".contains(second) {
                    if before != "q" && before != "g" { count += 1 }
                } else if first == "e", second == "a", before == "r", letter(k - 2) == "c", letter(k + 2) == "t",
                    letter(k + 3) != "u"
                {
                    count += 1
                }
            }
        }
        if let last = groups.last, last.upperBound == n, last.count == 2, ends("ea"), groups.count > 1 {
            count += 1
        }

        // Silent e: final, before -s, before -d, and before a suffix that starts with a consonant.
        let loneE = { (index: Int) in letter(index) == "e" && isConsonant(index - 1) && !isVowel(index + 1) }
        let syllabicLE = { (index: Int) in letter(index - 1) == "l" && isConsonant(index - 2) }
        if count > 1, ends("e"), loneE(n - 1), !syllabicLE(n - 1) {
            count -= 1
        } else if count > 1, ends("es"), loneE(n - 2), !syllabicLE(n - 2) {
            let before = letter(n - 3)
            let sibilant = before.map { "sxzcg".contains($0) } ?? false
            let digraph = before == "h" && (letter(n - 4) == "c" || letter(n - 4) == "s")
            if !sibilant && !digraph { count -= 1 }
        } else if count > 1, ends("ed"), loneE(n - 2) {
            let before = letter(n - 3)
            let clusterR = before == "r" && isConsonant(n - 4) && letter(n - 4) != "r"
            if before != "t" && before != "d" && !clusterR { count -= 1 }
        }
        let suffixes = ["ly", "ful", "ment", "ness", "less", "thing", "times", "where", "work"]
        for group in groups.dropFirst()
        where group.count == 1 && loneE(group.lowerBound) && !syllabicLE(group.lowerBound) {
            let rest = String(w[(group.lowerBound + 1)...])
            if suffixes.contains(rest) { count -= 1 }
        }
        if ends("sm") || ends("thm") { count += 1 }
        return max(count, 1)
    }
}

extension GradeBand {
    /// The Flesch–Kincaid grades student-facing text should fall in for this band.
    ///
    /// The ranges loosely follow the Common Core text-complexity bands (their Flesch–Kincaid measures run
    /// about 2–5.3 for grades 2–3, 6.5–10.3 for 6–8 and 8.3–14.2 for 9–12), lowered for K–2 and 3–5 because
    /// the short prompts students read in a lesson should sit at or below the band's stretch texts.
    package var expectedReadingLevel: ClosedRange<Double> {
        switch self {
        case .kTo2: 0...2.5
        case .threeTo5: 2...5.5
        case .sixTo8: 6...10
        case .nineTo12: 8...14
        }
    }
}

/// The reading level of a plan's student-facing text against the range its grade band expects.
package struct ReadingMeasure: Codable, Equatable, Sendable {
    /// The Flesch–Kincaid grade to one decimal, or nil when the plan has no student-facing words.
    package var grade: Double?
    /// How many words of student-facing text were measured.
    package var words: Int
    /// The band the plan is written for.
    package var band: GradeBand
    /// The lowest grade the band expects.
    package var expectedLow: Double
    /// The highest grade the band expects.
    package var expectedHigh: Double
    /// Whether the grade lies in the expected range; true when there is nothing to measure.
    package var inRange: Bool

    /// Measures `studentText` for `band`.
    package init(studentText: String, band: GradeBand) {
        let grade = ReadingLevel.fleschKincaidGrade(studentText).map { ($0 * 10).rounded() / 10 }
        let range = band.expectedReadingLevel
        self.grade = grade
        words = studentText.split(whereSeparator: \.isWhitespace).filter { $0.contains(where: \.isLetter) }.count
        self.band = band
        expectedLow = range.lowerBound
        expectedHigh = range.upperBound
        inRange = grade.map { range.contains($0) } ?? true
    }

    /// A measure as recorded: how a transcript's `reading_level` is read back without `JSONDecoder`.
    package init(grade: Double?, words: Int, band: GradeBand, expectedLow: Double, expectedHigh: Double, inRange: Bool) {
        self.grade = grade
        self.words = words
        self.band = band
        self.expectedLow = expectedLow
        self.expectedHigh = expectedHigh
        self.inRange = inRange
    }

    /// How many grades the level lies outside the expected range; 0 inside it or when nothing was measured.
    package var distance: Double {
        guard let grade else { return 0 }
        if grade < expectedLow { return expectedLow - grade }
        if grade > expectedHigh { return grade - expectedHigh }
        return 0
    }

    /// The expected range as teachers read it, e.g. `2–5.5`.
    package var expectedText: String { "\(Self.format(expectedLow))–\(Self.format(expectedHigh))" }

    /// The grade as shown, e.g. `4.2`, or `–` when nothing was measured.
    package var gradeText: String { grade.map(Self.format) ?? "–" }

    /// A grade with one decimal, without a trailing `.0`.
    package static func format(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let whole = abs(tenths) / 10
        let fraction = abs(tenths) % 10
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
