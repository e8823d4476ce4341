import Foundation

/// One standard as the publisher states it: Common Core mathematics or English language arts, or an NGSS
/// performance expectation, read from `prompts/standards/standards.tsv` (built by `scripts/build-standards`).
package struct Standard: Sendable, Equatable {
    /// The three sets the file holds; the data leaves room for more (a state's) as further values.
    package enum Subject: String, Sendable, CaseIterable {
        case math, ela, science

        /// The set's name as a teacher knows it, for sentences.
        package var setName: String {
            switch self {
            case .math: "Common Core Mathematics"
            case .ela: "Common Core English Language Arts"
            case .science: "NGSS"
            }
        }
    }

    package let subject: Subject
    /// The short code with its cluster letter: `4.NF.A.1`, `RL.5.2`, `MS-LS1-6`.
    package let code: String
    /// The publisher's full form: `CCSS.Math.Content.4.NF.A.1`.
    package let fullCode: String
    /// The other short form the data gives (`4.NF.1`), or empty.
    package let altCode: String
    /// The grades it is for, kindergarten as 0, ascending.
    package let grades: [Int]
    /// `Standard`, `Component`, `Cluster`, `Performance Expectation`, `Disciplinary Core Idea`.
    package let kind: String
    /// The code of the cluster or core idea it sits under, or empty.
    package let parent: String
    package let text: String
    /// An NGSS performance expectation's clarification statement, or empty.
    package let clarification: String
    /// An NGSS performance expectation's assessment boundary, or empty: what a quiz on it should not ask.
    package let boundary: String

    /// Whether it is a heading (a cluster, a core idea) rather than something a lesson is aligned to.
    package var isHeading: Bool { kind == "Cluster" || kind == "Disciplinary Core Idea" }

    /// Its grades as a teacher writes them: `grade 4`, `grades 6–8`, `grades K–12`.
    package var gradeText: String {
        guard let low = grades.first, let high = grades.last else { return "no grade" }
        if low == high { return "grade \(GradeBand.gradeName(low))" }
        return "grades \(GradeBand.gradeName(low))–\(GradeBand.gradeName(high))"
    }

    /// Whether any of its grades is in `band`: a K–12 anchor standard belongs to every band, MS-LS1-6 to 6–8 only.
    package func isInside(_ band: GradeBand) -> Bool {
        grades.contains { band.grades.contains($0) }
    }
}

/// The standards compiled into the binary, looked up by code in any of its usual forms.
///
/// A typed code is normalised before it is looked up (case, the `CCSS.Math.Content.` prefix, dashes or dots,
/// the cluster letter present or not), so `4.NF.1`, `4.nf.a.1` and `CCSS.MATH.CONTENT.4.NF.A.1` are one standard.
/// A code that is not one gets the nearest real codes, same grade and domain first, so a teacher sees what
/// the model (or a slip of the keyboard) meant instead of an invented standard passing as real.
package struct StandardsCatalog: Sendable {
    package let standards: [Standard]
    /// Every accepted form's key, to the standard's index in `standards`.
    private let index: [String: Int]
    /// Each standard's keys, by its index, for suggestions.
    private let forms: [[String]]
    /// The grade and domain of every key (`4.NF`, `RL.5`, `MS.LS1`): a code with one of these is of a known set.
    private let stems: Set<String>

    /// The catalogue built from the embedded `standards/standards.tsv`, parsed once on first use.
    package static let builtIn = StandardsCatalog(tsv: EmbeddedPrompts.files["standards/standards.tsv"] ?? "")

    /// Reads the file `scripts/build-standards` writes: a header line, then ten tab-separated columns a line.
    /// Lines that do not have them are skipped, so a damaged line costs one standard, not the catalogue.
    package init(tsv: String) {
        var standards: [Standard] = []
        // Split as bytes: tabs and newlines are ASCII, and splitting 458 KB by Character was most of the load.
        for line in tsv.utf8.split(separator: UInt8(ascii: "\n")).dropFirst() {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 10, let subject = Standard.Subject(rawValue: fields[0]) else { continue }
            let grades = fields[4].split(separator: ",").compactMap { Int($0) }
            standards.append(
                Standard(
                    subject: subject, code: fields[1], fullCode: fields[2], altCode: fields[3], grades: grades,
                    kind: fields[5], parent: fields[6], text: fields[7], clarification: fields[8], boundary: fields[9]))
        }
        let forms = standards.map(Self.keys(of:))
        var index: [String: Int] = [:]
        for (position, keys) in forms.enumerated() {
            for key in keys where index[key] == nil { index[key] = position }
        }
        self.standards = standards
        self.index = index
        self.forms = forms
        stems = Set(index.keys.lazy.filter { $0.contains(".") }.map(Self.stem))
    }

    /// Whether `stem` (``stem(_:)`` of a key) is the grade and domain of a real code.
    func isKnownStem(_ stem: String) -> Bool { stems.contains(stem) }

    /// The standard `typed` names in any accepted form, or nil.
    package func standard(for typed: String) -> Standard? {
        index[Self.key(typed)].map { standards[$0] }
    }

    /// The real codes nearest to `typed`, best first: those of the same grade and domain (`4.NF`) when there
    /// are any, else every code; never headings. Empty when nothing is near.
    package func suggestions(for typed: String, limit: Int = 2) -> [Standard] {
        let key = Self.key(typed)
        let stem = Self.stem(key)
        let candidates = standards.indices.filter { !standards[$0].isHeading }
        let sameDomain = candidates.filter { position in forms[position].contains { Self.stem($0) == stem } }
        let pool = sameDomain.isEmpty ? candidates : sameDomain
        let scored = pool.map { position in
            (position, forms[position].map { Self.editDistance(key, $0) }.min() ?? Int.max)
        }
        let near = sameDomain.isEmpty ? scored.filter { $0.1 <= max(2, key.count / 3) } : scored
        return near.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.prefix(limit).map { standards[$0.0] }
    }

    /// Standards whose text or code holds every word, in file order, optionally of one subject and grade band
    /// or grade; headings are left out.
    package func search(_ words: [String], subject: Standard.Subject? = nil, grades: ClosedRange<Int>? = nil) -> [Standard] {
        let needles = words.map { $0.lowercased() }.filter { !$0.isEmpty }
        return standards.filter { standard in
            guard !standard.isHeading else { return false }
            if let subject, standard.subject != subject { return false }
            if let grades, !standard.grades.contains(where: { grades.contains($0) }) { return false }
            let haystack = (standard.code + " " + standard.text).lowercased()
            return needles.allSatisfy { haystack.contains($0) }
        }
    }

    /// The one sentence for a code that is not a standard, naming the nearest real ones:
    /// "4.NF.9 is not a Common Core standard; 4.NF.A.1 (Explain why a fraction …) is closest."
    package func unknownSentence(for typed: String) -> String {
        let shown = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let key = Self.key(typed)
        let ngss = key.firstMatch(of: /^(K|[1-5]|MS|HS)\.(PS|LS|ESS|ETS)\d/) != nil
        let what = ngss ? "an NGSS performance expectation" : "a Common Core standard"
        let near = suggestions(for: typed)
        guard let first = near.first else {
            return "\(shown) is not \(what), and no real code is near it; `lessonplan standards search WORDS` finds codes by their words."
        }
        let others = near.dropFirst().map(\.code)
        let then = others.isEmpty ? "" : ", then \(others.joined(separator: ", "))"
        return "\(shown) is not \(what); \(first.code) (\(Self.snippet(first.text))) is closest\(then)."
    }

    /// The sentence for a real code outside the lesson's band: "MS-LS1-6 is for grades 6–8, not 3–5."
    package static func outsideBandSentence(_ standard: Standard, band: GradeBand) -> String {
        "\(standard.code) is for \(standard.gradeText), not the lesson's \(band.rawValue)."
    }

    /// The first words of a text, cut at a word near `limit` characters with an ellipsis.
    package static func snippet(_ text: String, limit: Int = 60) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit)
        let words = cut.split(separator: " ").dropLast()
        return (words.isEmpty ? String(cut) : words.joined(separator: " ")) + " …"
    }

    /// Whether `text` is shaped like a standard's code (`4.NF.9`, `RL.5.2`, `MS-LS1-6`, `CCSS.MATH…`) rather
    /// than words: a teacher's "fractions on a number line" is passed on as typed, a code is looked up.
    package static func looksLikeCode(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.contains(" ") else { return false }
        return trimmed.wholeMatch(of: codeShape) != nil
    }

    /// A code's shape: letters and digits in two or more parts joined by dots or dashes, one part with a digit.
    nonisolated(unsafe) private static let codeShape = /(?i)(?=[^ ]*\d)[a-z0-9]{1,8}(?:[.\-–][a-z0-9]{1,8}){1,7}[.,;:]?/

    /// The form every code is compared in: upper case, no publisher prefix, dots for dashes and spaces, no
    /// trailing punctuation. Written without Foundation's string calls: it runs for every form of every
    /// standard while the catalogue loads, and on Linux those calls made the load take a quarter second.
    package static func key(_ typed: String) -> String {
        var text = String(
            typed.uppercased().map { character -> Character in
                character == "-" || character == "–" || character.isWhitespace ? "." : character
            })
        while let first = text.first, first == "." { text.removeFirst() }
        while let last = text.last, ".,;:".contains(last) { text.removeLast() }
        for prefix in ["CCSS.MATH.CONTENT.", "CCSS.MATH.PRACTICE.", "CCSS.ELA.LITERACY.", "CCSS.", "NGSS."]
        where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
            break
        }
        return text
    }

    /// The grade and domain of a key, its first two parts: `4.NF` of `4.NF.9`, `MS.LS1` of `MS.LS1.6`.
    static func stem(_ key: String) -> String {
        key.split(separator: ".").prefix(2).joined(separator: ".")
    }

    /// Every key a standard is found by: its code, full and other forms, each also without the cluster letter,
    /// a component's letter with or without its dot, and a high-school code with or without `HS`.
    static func keys(of standard: Standard) -> [String] {
        var keys: [String] = []
        for form in [standard.code, standard.fullCode, standard.altCode] where !form.isEmpty {
            let key = Self.key(form)
            for variant in [key, withoutCluster(key)] {
                keys.append(variant)
                keys.append(contentsOf: componentForms(variant))
            }
        }
        if standard.subject == .math {
            keys += keys.filter { $0.hasPrefix("HS") }.map { String($0.dropFirst(2)) }
        }
        var seen = Set<String>()
        return keys.filter { seen.insert($0).inserted }
    }

    /// `4.NF.1` from `4.NF.A.1`: a one-letter part followed by a part that starts with a digit is a cluster.
    static func withoutCluster(_ key: String) -> String {
        let parts = key.split(separator: ".").map(String.init)
        var kept: [String] = []
        for (position, part) in parts.enumerated() {
            let next = position + 1 < parts.count ? parts[position + 1] : ""
            let isCluster = position > 0 && part.count == 1 && part.first?.isLetter == true && next.first?.isNumber == true
            if !isCluster { kept.append(part) }
        }
        return kept.joined(separator: ".")
    }

    /// `4.NF.4.C` for `4.NF.4C` and the other way round: components are written both ways.
    static func componentForms(_ key: String) -> [String] {
        // By hand, not with a Regex: this runs for every form of every standard while the catalogue loads.
        let characters = Array(key)
        guard let letter = characters.last, letter.isLetter, characters.count >= 3 else { return [] }
        let before = characters[characters.count - 2]
        if before.isNumber { return [String(characters.dropLast()) + "." + String(letter)] }
        if before == ".", characters[characters.count - 3].isNumber { return [String(characters.dropLast(2)) + String(letter)] }
        return []
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
