import Foundation

/// The codes a text cites, each resolved against the catalogue: what a plan, quiz or rubric names as a
/// standard is checked to be one, for the lesson's grade band, before a teacher trusts it.
///
/// A word is read as a cited code only when it is shaped like one and belongs to a set the catalogue holds:
/// it carries a publisher's prefix (`CCSS.…`, `NGSS.…`), or it has three parts or more and is a real code or
/// has the grade and domain (`4.NF`, `RL.5`, `MS-LS1`) of real codes. So `4.NF.9` and `MS-LS1-9` are
/// read (and found invented), while `0–5`, `H2O`, `K-2` or `U-235` are never taken for standards.
package struct CitedStandard: Equatable, Sendable {
    /// The code as the text writes it, without surrounding punctuation.
    package let typed: String
    /// The standard it names, or nil when it names none.
    package let standard: Standard?
}

extension StandardsCatalog {
    /// Every distinct code `text` cites, in order of first appearance.
    package func cited(in text: String) -> [CitedStandard] {
        var seen = Set<String>()
        var found: [CitedStandard] = []
        for token in Self.tokens(of: text) where isCitedCode(token) {
            let key = Self.key(token)
            guard seen.insert(key).inserted else { continue }
            found.append(CitedStandard(typed: token, standard: standard(for: token)))
        }
        return found
    }

    /// Whether a word is a cited code by the rule above.
    func isCitedCode(_ token: String) -> Bool {
        guard token.contains(where: \.isLetter), token.contains(where: \.isNumber), Self.looksLikeCode(token) else {
            return false
        }
        let upper = token.uppercased()
        if upper.hasPrefix("CCSS.") || upper.hasPrefix("NGSS.") { return true }
        // Two parts are too few to tell a code from a number: `K-2` is a band, though a short form of K.G.A.2.
        let key = Self.key(token)
        return key.split(separator: ".").count >= 3 && (standard(for: token) != nil || isKnownStem(Self.stem(key)))
    }

    /// A text's words as codes are written: split at spaces, brackets, quotes, commas, semicolons and slashes,
    /// with the sentence's own trailing punctuation taken off.
    static func tokens(of text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || "()[]{},;/\"“”‘’«»*_|".contains($0) }).map { word in
            var token = String(word)
            while let last = token.last, ".:!?'".contains(last) { token.removeLast() }
            while let first = token.first, "'".contains(first) { token.removeFirst() }
            return token
        }.filter { !$0.isEmpty }
    }
}

/// What a teacher typed as standards (`--standards`, `/standards`), with each code resolved to its real text
/// before anything is sent, and a sentence for each code that is not a standard or is for another band.
package struct StandardsResolution: Equatable, Sendable {
    /// The standards as they go to the model: each item that opens with a real code is that code and its text
    /// word for word (and an NGSS expectation's assessment boundary); other items as typed.
    package var text: String
    /// One sentence for each code that is not a standard, or is for a band other than the lesson's.
    package var concerns: [String]
    /// The standards' own texts, which the plan is asked to quote word for word.
    package var quotable: [String]

    /// Resolves `typed` (items separated by `;` or new lines) for a lesson in `band`.
    package init(_ typed: String, band: GradeBand, catalog: StandardsCatalog = .builtIn) {
        var items: [String] = []
        var concerns: [String] = []
        var quotable: [String] = []
        for item in StandardsAlignment.items(typed) {
            let first = StandardsCatalog.tokens(of: item).first ?? ""
            let opensWithCode = item.hasPrefix(first) || item.dropFirst().hasPrefix(first)
            guard opensWithCode, catalog.isCitedCode(first) else {
                for cited in catalog.cited(in: item) where cited.standard == nil {
                    concerns.append(catalog.unknownSentence(for: cited.typed))
                }
                items.append(item)
                quotable.append(item)
                continue
            }
            guard let standard = catalog.standard(for: first) else {
                concerns.append(catalog.unknownSentence(for: first))
                items.append(item)
                quotable.append(item)
                continue
            }
            if !standard.isInside(band) { concerns.append(StandardsCatalog.outsideBandSentence(standard, band: band)) }
            var line = "\(standard.code): \(standard.text)"
            if !standard.boundary.isEmpty { line += " (Assessment boundary: \(standard.boundary))" }
            let rest = Self.rest(of: item, after: first)
            if !rest.isEmpty, !standard.text.lowercased().hasPrefix(rest.lowercased()) { line += " — \(rest)" }
            items.append(line)
            quotable.append(standard.text)
        }
        text = items.joined(separator: "\n")
        self.concerns = concerns
        self.quotable = quotable
    }

    /// The words of an item after its opening code, without the separators teachers put between.
    private static func rest(of item: String, after code: String) -> String {
        guard let range = item.range(of: code) else { return "" }
        return String(item[range.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: ":–—-.,; ").union(.whitespaces))
    }
}

/// The standards findings of a plan: a cited code that is not a standard is a problem, a real one for another
/// grade band is advice, and a line that asks what an NGSS expectation's assessment boundary leaves out is
/// advice too.
package enum StandardsFindings {
    /// The notes for a plan already read, for a lesson in `band`.
    package static func notes(_ document: PlanDocument, band: GradeBand, catalog: StandardsCatalog = .builtIn) -> [ContentNote] {
        var notes: [ContentNote] = []
        var seen = Set<String>()
        var bounded: [(standard: Standard, words: Set<String>)] = []
        for section in document.sections {
            for line in section.body {
                for cited in catalog.cited(in: line) where seen.insert(StandardsCatalog.key(cited.typed)).inserted {
                    guard let standard = cited.standard else {
                        notes.append(
                            ContentNote(
                                .unknownStandard, section: section.heading, quote: cited.typed, others: [catalog.unknownSentence(for: cited.typed)]))
                        continue
                    }
                    if !standard.isInside(band) {
                        notes.append(
                            ContentNote(
                                .standardOutsideBand, section: section.heading, quote: cited.typed,
                                others: [StandardsCatalog.outsideBandSentence(standard, band: band)]))
                    }
                    let words = boundaryWords(of: standard)
                    if !words.isEmpty { bounded.append((standard, words)) }
                }
            }
        }
        for (standard, words) in bounded {
            notes += pastBoundary(document, standard: standard, words: words)
        }
        return notes
    }

    /// The sentences for a quiz's or rubric's text: each cited code that is not a standard.
    package static func problems(in text: String, catalog: StandardsCatalog = .builtIn) -> [String] {
        catalog.cited(in: text).filter { $0.standard == nil }.map { catalog.unknownSentence(for: $0.typed) }
    }

    /// Lines (quiz items, plan lines) that go past the boundaries of the standards `text` cites, as sentences.
    package static func pastBoundaries(_ lines: [(label: String, text: String)], citedIn text: String, catalog: StandardsCatalog = .builtIn)
        -> [String]
    {
        let standards = catalog.cited(in: text).compactMap(\.standard)
        var sentences: [String] = []
        for standard in standards {
            let words = boundaryWords(of: standard)
            guard !words.isEmpty else { continue }
            for line in lines where crosses(line.text, words: words) {
                sentences.append(
                    ContentNote(.pastBoundary, section: line.label, quote: line.text, others: [standard.code, standard.boundary]).description)
            }
        }
        return sentences
    }

    private static func pastBoundary(_ document: PlanDocument, standard: Standard, words: Set<String>) -> [ContentNote] {
        var notes: [ContentNote] = []
        for section in document.sections {
            for raw in section.body {
                let line = ContentChecker.quotable(raw)
                guard crosses(line, words: words), !line.contains(standard.code) else { continue }
                notes.append(ContentNote(.pastBoundary, section: section.heading, quote: line, others: [standard.code, standard.boundary]))
            }
        }
        return notes
    }

    /// Whether a line uses a word only the boundary's excluded part has.
    static func crosses(_ line: String, words: Set<String>) -> Bool {
        ContentText.words(line).contains { word in words.contains { word.hasPrefix($0) } }
    }

    /// The distinctive words of what an expectation's boundary excludes ("does not include the biochemical
    /// mechanisms of photosynthesis": biochemical, mechanism): words of seven letters or more that the
    /// expectation's own statement and clarification never use, cut to their first seven letters.
    static func boundaryWords(of standard: Standard) -> Set<String> {
        let lower = standard.boundary.lowercased()
        guard let range = lower.range(of: "does not include") else { return [] }
        let excluded = lower[range.upperBound...].prefix { $0 != "." }
        let own = Set((ContentText.words(standard.text) + ContentText.words(standard.clarification)).map { String($0.prefix(7)) })
        let generic: Set<String> = ["assessm", "include", "example", "specifi", "student", "underst", "describi", "explana"]
        return Set(
            ContentText.words(String(excluded)).filter { $0.count >= 7 }.map { String($0.prefix(7)) }
                .filter { !own.contains($0) && !generic.contains($0) })
    }
}

extension StandardsCatalog {
    /// Each code `text` cites as a line for the teacher: a real one with its grades and its text word for word,
    /// marked as looked up (and said to be for another band than `band`'s when it is); one that is no standard
    /// with the sentence naming the closest real ones.
    package func verifiedLines(citedIn text: String, band: GradeBand? = nil) -> [String] {
        cited(in: text).map { cited in
            guard let standard = cited.standard else { return "✗ \(unknownSentence(for: cited.typed))" }
            let other = band.flatMap { standard.isInside($0) ? nil : "; not the lesson's \($0.rawValue)" } ?? ""
            return "✓ \(standard.code) (\(standard.subject.setName), \(standard.gradeText)\(other)), as published: \(standard.text)"
        }
    }
}

extension Framework {
    /// Checks a plan (``check(_:lessonMinutes:topic:)``) and the standards it cites against the lesson's band.
    package func check(_ plan: String, lessonMinutes minutes: Int, topic: String? = nil, grade: GradeBand) -> PlanCheckReport {
        check(document(of: plan), lessonMinutes: minutes, topic: topic, grade: grade)
    }

    /// Checks a plan already read, then the standards it cites (``StandardsFindings``): a lesson's whole check.
    package func check(_ document: PlanDocument, lessonMinutes minutes: Int, topic: String? = nil, grade: GradeBand) -> PlanCheckReport {
        var report = check(document, lessonMinutes: minutes, topic: topic)
        report.notes = (report.notes ?? []) + StandardsFindings.notes(document, band: grade)
        return report
    }
}
