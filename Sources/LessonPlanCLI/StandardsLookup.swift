import Foundation
import LessonPlanCore
import LessonPlanKit

/// `lessonplan standards`: a code's real text, codes found by their words, and the notices the publishers ask
/// for. It needs no key and no network, so it runs here in the library, printing through the host, like `help`.
enum StandardsLookup {
    /// The attributions and notices, as `--about` prints them and the README quotes them.
    static let about = """
        The standards are compiled into lessonplan from the Common Standards Project's data (prompts/standards/standards.tsv, built by scripts/build-standards from a pinned snapshot of the public repository kaganlove/education-standards-json).

        Common Standards Project data: licensed under Creative Commons Attribution 3.0 United States (CC BY 3.0 US, https://creativecommons.org/licenses/by/3.0/us/), rights holder D2L Corporation. The file lessonplan carries is a reduced form of it (codes, grades, statements, and for NGSS performance expectations their clarification statements and assessment boundaries).

        Common Core State Standards: © Copyright 2010. National Governors Association Center for Best Practices and Council of Chief State School Officers. All rights reserved. NGA Center/CCSSO are the sole owners and developers of the Common Core State Standards. The standards are used, word for word, under the Common Core State Standards public license (https://corestandards.org/public-license/), which provides them as-is; NGA Center/CCSSO do not endorse this product.

        Next Generation Science Standards: NGSS is a registered trademark of Achieve. Neither Achieve nor the lead states and partners that developed the NGSS were involved in the production of this product, and do not endorse it.
        """

    /// How many matches `search` prints before it counts the rest.
    static let searchLimit = 20

    /// Runs `lessonplan standards …`.
    /// - Returns: 0 when every code is a standard (or the search found one), 1 when one is not, 2 for bad usage.
    static func run(_ parsed: ParsedArguments, on host: any SubcommandHost, catalog: StandardsCatalog = .builtIn) -> Int32 {
        if parsed.has("about") {
            host.page(about)
            return 0
        }
        if parsed.positionals.first?.lowercased() == "search" {
            return search(parsed, on: host, catalog: catalog)
        }
        guard parsed.value("grade") == nil, parsed.value("subject") == nil else {
            host.error("standards: --grade and --subject narrow a search; write `lessonplan standards search WORDS --grade 4`.")
            return 2
        }
        let codes = parsed.positionals.flatMap { $0.split(separator: ",").map(String.init) }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !codes.isEmpty else {
            host.error(
                "standards: name a code, e.g. `lessonplan standards 4.NF.1 MS-LS1-6 RL.5.2`, or search: `lessonplan standards search fractions --grade 4`."
            )
            return 2
        }
        var status: Int32 = 0
        for code in codes {
            guard let standard = catalog.standard(for: code) else {
                host.error(catalog.unknownSentence(for: TerminalSanitizer.cleanLine(code, limit: 40)))
                status = 1
                continue
            }
            for line in describe(standard) { host.line(line) }
        }
        return status
    }

    /// A standard as lines: its code, set and grades, its text, and an expectation's clarification and boundary.
    static func describe(_ standard: Standard) -> [String] {
        var lines = ["\(standard.code) · \(standard.subject.setName) · \(standard.gradeText)", "  \(standard.text)"]
        if !standard.clarification.isEmpty { lines.append("  Clarification: \(standard.clarification)") }
        if !standard.boundary.isEmpty { lines.append("  Assessment boundary: \(standard.boundary)") }
        return lines
    }

    /// `standards search WORDS [--grade G] [--subject S]`: the first matches, one line each.
    private static func search(_ parsed: ParsedArguments, on host: any SubcommandHost, catalog: StandardsCatalog) -> Int32 {
        let words = Array(parsed.positionals.dropFirst())
        guard !words.isEmpty else {
            host.error("standards search: give the words to look for, e.g. `lessonplan standards search photosynthesis`.")
            return 2
        }
        var subject: Standard.Subject?
        if let typed = parsed.value("subject") {
            guard let known = Standard.Subject(rawValue: typed.lowercased()) else {
                host.error("standards search: --subject is math, ela or science, not “\(TerminalSanitizer.cleanLine(typed, limit: 30))”.")
                return 2
            }
            subject = known
        }
        var grades: ClosedRange<Int>?
        if let typed = parsed.value("grade") {
            do {
                let given = try GradeBand.parseGiven(typed)
                grades = given.grade.map { $0...$0 } ?? given.band.grades
            } catch {
                host.error("standards search: --grade is \(GradeBand.acceptedForms).")
                return 2
            }
        }
        let found = catalog.search(words, subject: subject, grades: grades)
        guard !found.isEmpty else {
            host.error(
                "No standard has all of “\(TerminalSanitizer.cleanLine(words.joined(separator: " "), limit: 60))” in its text; try fewer or other words."
            )
            return 1
        }
        for standard in found.prefix(searchLimit) {
            host.line("\(standard.code) (\(standard.gradeText)): \(StandardsCatalog.snippet(standard.text, limit: 100))")
        }
        if found.count > searchLimit {
            host.line("… and \(found.count - searchLimit) more; add words, --grade or --subject to narrow it.")
        }
        return 0
    }
}
