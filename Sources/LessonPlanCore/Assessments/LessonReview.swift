import Foundation

/// The criteria `/review` scores a plan against, read from `prompts/review-rubric.txt`: where they come from,
/// the scale, and one line per criterion.
package struct ReviewRubric: Equatable, Sendable {
    /// One line naming where the criteria come from and under what licence; shown under every review.
    package var source: String
    /// The top score (the bottom is 0).
    package var top: Int
    /// What each score means, e.g. `3 superior, 2 strong, 1 limited, 0 very weak`.
    package var scale: String
    package var criteria: [ReviewCriterion]

    /// Reads `source:`, `scale: TOP | words` and `criterion: Name | description` lines; `#` lines are comments.
    /// - Returns: nil when the text names no criterion or no top score, which the caller turns into a sentence.
    package init?(parsing text: String) {
        var source = ""
        var top: Int?
        var scale = ""
        var criteria: [ReviewCriterion] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            let parts = value.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch key {
            case "source":
                source = value
            case "scale":
                top = parts.first.flatMap { Int($0) }
                scale = parts.count > 1 ? parts[1] : ""
            case "criterion":
                guard let name = parts.first, !name.isEmpty else { continue }
                criteria.append(ReviewCriterion(name: name, description: parts.count > 1 ? parts[1] : ""))
            default:
                continue
            }
        }
        guard let top, top > 0, !criteria.isEmpty else { return nil }
        self.source = source
        self.top = top
        self.scale = scale
        self.criteria = criteria
    }

    /// What to do when `prompts/review-rubric.txt` cannot be used.
    package static let unusable =
        "The review criteria (review-rubric.txt in the prompts folder) list no criterion or no scale; add a line “scale: 3 | 3 superior, …” and one “criterion: Name | what it looks at” per criterion, or delete the file to use the built-in ones."

    /// `{{review_criteria}}`, `{{review_top}}` and `{{review_scale}}` for `prompts/review.txt`.
    package var promptValues: [String: String] {
        [
            "review_criteria": criteria.enumerated()
                .map { "\($0.offset + 1). \($0.element.name)" + ($0.element.description.isEmpty ? "" : ": \($0.element.description)") }
                .joined(separator: "\n"),
            "review_top": String(top),
            "review_scale": scale.isEmpty ? "\(top) is the best" : scale,
        ]
    }

    /// Whether every row of a review names one of these criteria, so that `source` is where they come from.
    package func covers(_ review: LessonReview) -> Bool {
        let names = Set(criteria.map { $0.name.lowercased() })
        return !review.rows.isEmpty && review.rows.allSatisfy { names.contains($0.criterion.lowercased()) }
    }
}

/// One criterion of the review rubric.
package struct ReviewCriterion: Equatable, Sendable {
    package var name: String
    package var description: String
}

/// Whether a review row's quoted sentence is in the plan it reviewed, as checked by code.
package enum EvidenceStatus: String, Codable, Equatable, Sendable {
    /// Found word for word (normalised) in the plan.
    case found
    /// Not in the plan: the model quoted something the plan does not say.
    case notFound = "not_found"
    /// The row quotes nothing (`Evidence: none`, or no evidence line).
    case none
    /// The plan it reviewed is on a damaged transcript line, so nothing could be checked.
    case unchecked

    /// The mark after the quotation, for the teacher; empty when found.
    package var mark: String {
        switch self {
        case .found: ""
        case .notFound: "evidence not found in the plan"
        case .none: "no sentence of the plan quoted"
        case .unchecked: "not checked: the plan it reviewed is not in the transcript"
        }
    }
}

/// One criterion of a review: its score, the sentence of the plan it rests on, why, and whether that sentence
/// is in the plan.
package struct ReviewRow: Codable, Equatable, Sendable {
    package var criterion: String
    /// The score given; nil for N/A or a score the reader could not read.
    package var score: Int?
    /// The top of the scale the answer scored against (`2 of 3` → 3); nil when it did not say.
    package var outOf: Int?
    /// The sentence quoted, without its quotation marks; empty when none.
    package var evidence: String
    package var why: String
    package var status: EvidenceStatus
    /// The score as the answer wrote it when it is off the scale or not a score (`7 of 3`, `1000 of 3`, `0x3`):
    /// ``score`` is then nil, so no total or export takes it for one.
    package var refusedScore: String?
    /// A criterion the rubric does not list, or one given a second time; nil for one of the rubric's, first time.
    package var criterionIssue: CriterionIssue?

    /// Why a row's criterion is not one the review was asked to score.
    package enum CriterionIssue: String, Codable, Equatable, Sendable {
        /// Not among the rubric's criteria: the model made it up.
        case invented
        /// The same criterion scored again.
        case repeated
    }

    package init(
        criterion: String, score: Int?, outOf: Int?, evidence: String, why: String, status: EvidenceStatus = .unchecked,
        refusedScore: String? = nil, criterionIssue: CriterionIssue? = nil
    ) {
        self.criterion = criterion
        self.score = score
        self.outOf = outOf
        self.evidence = evidence
        self.why = why
        self.status = status
        self.refusedScore = refusedScore
        self.criterionIssue = criterionIssue
    }

    /// `2 of 3`, `2`, `N/A`, or `not kept` for a score off the scale.
    package var scoreText: String {
        if refusedScore != nil { return "not kept" }
        guard let score else { return "N/A" }
        return outOf.map { "\(score) of \($0)" } ?? String(score)
    }

    /// The marks under the row besides its quotation's, one short phrase each.
    package var marks: [String] {
        var marks: [String] = []
        if let refusedScore { marks.append("score “\(refusedScore)” is not on the scale, so it is not kept") }
        switch criterionIssue {
        case .invented: marks.append("not one of the criteria the review was asked to score")
        case .repeated: marks.append("this criterion is scored twice; the first one stands")
        case nil: break
        }
        return marks
    }

    private enum CodingKeys: String, CodingKey {
        case criterion, score
        case outOf = "out_of"
        case evidence, why, status
        case refusedScore = "refused_score"
        case criterionIssue = "criterion_issue"
    }
}

/// A second opinion on a plan version from the model: one row per criterion, each quotation checked by code.
package struct LessonReview: Codable, Equatable, Sendable {
    package var rows: [ReviewRow]

    package init(rows: [ReviewRow]) { self.rows = rows }

    /// Reads the model's answer and checks every quoted sentence against `plan` (nil: the plan is lost), every score
    /// against the scale and every criterion against `rubric` (nil: not known, so only scores above their own
    /// `of M`, unreadable scores and repeated criteria are marked).
    package init(reading answer: String, plan: String?, rubric: ReviewRubric? = nil) {
        var seen: Set<String> = []
        let names = rubric.map { Set($0.criteria.map { $0.name.lowercased() }) }
        rows = ReviewReader.read(answer).map { row in
            var row = row
            if row.evidence.isEmpty {
                row.status = .none
            } else if let plan {
                row.status = QuoteChecker.isQuoted(row.evidence, in: plan) ? .found : .notFound
            } else {
                row.status = .unchecked
            }
            if let score = row.score, !Self.onScale(score, outOf: row.outOf, top: rubric?.top) {
                row.refusedScore = row.outOf.map { "\(score) of \($0)" } ?? String(score)
            }
            if row.refusedScore != nil { row.score = nil }
            let name = row.criterion.lowercased()
            if let names, !names.contains(name) {
                row.criterionIssue = .invented
            } else if !seen.insert(name).inserted {
                row.criterionIssue = .repeated
            }
            return row
        }
    }

    /// Whether `score` (of `outOf`, when it said) is a score on the scale from 0 to `top` (when known).
    static func onScale(_ score: Int, outOf: Int?, top: Int?) -> Bool {
        if let outOf, score > outOf || outOf == 0 { return false }
        if let top, score > top || (outOf.map { $0 != top } ?? false) { return false }
        return true
    }

    /// The rows whose quotation is not in the plan.
    package var unfound: [ReviewRow] { rows.filter { $0.status == .notFound } }

    /// The rows with a score off the scale or a criterion invented or repeated.
    package var marked: [ReviewRow] { rows.filter { !$0.marks.isEmpty } }

    /// One sentence per row whose quotation is not in the plan, for the footer.
    package var problems: [String] {
        unfound.map { "\($0.criterion): “\($0.evidence)” is not in the plan, so its score rests on nothing the plan says." }
    }

    /// One line for the rows with a score off the scale or a criterion not asked for; nil when there are none.
    package var markNotice: String? {
        guard !marked.isEmpty else { return nil }
        let each = marked.map { "\($0.criterion): " + $0.marks.joined(separator: "; ") }.joined(separator: "; ")
        return "✗ Review: \(counted(marked.count, "criterion", "criteria")) marked (\(each)); do not rely on those rows."
    }

    /// The line under a review: how many quotations the code found in the plan.
    package var summary: String {
        let quoted = rows.filter { $0.status == .found || $0.status == .notFound }.count
        let none = rows.filter { $0.status == .none }.count
        let unquoted = none == 0 ? "" : "; \(counted(none, "criterion", "criteria")) quote nothing"
        let offScale =
            marked.isEmpty
            ? "" : " ✗ \(counted(marked.count, "criterion", "criteria")) marked for a score off the scale or a criterion not asked for."
        if rows.contains(where: { $0.status == .unchecked }) {
            return "The quotations were not checked: the plan version this review was made from is not in the transcript.\(offScale)"
        }
        if unfound.isEmpty {
            return
                (quoted == 0
                ? "No criterion quotes the plan\(unquoted)."
                : "✓ Every quoted sentence (\(quoted)) is in the plan\(unquoted).") + offScale
        }
        return
            "✗ \(unfound.count) of \(quoted) quoted sentences \(unfound.count == 1 ? "is" : "are") not in the plan (marked)\(unquoted); do not rely on those scores.\(offScale)"
    }
}

/// Reads a review from the model's answer, one block per criterion:
///
///     Criterion: Quality of Assessment
///     Score: 2 of 3
///     Evidence: "Exit ticket: place 3/4 on the number line."
///     Why: The exit ticket checks the objective, but the CFU questions only ask for recall.
///
/// Labels are read in any case, with Markdown bold or list markers around them; a score is `N of M`, `N/M`,
/// `N` or `N/A`; the evidence loses one pair of quotation marks (straight or curly); `none` is no evidence. A
/// line without a label continues the one before it.
package enum ReviewReader {
    private static let scorePattern = SharedRegex(/(\d+)\s*(?:(?:of|out of|\/)\s*(\d+))?/)

    package static func read(_ text: String) -> [ReviewRow] {
        var rows: [ReviewRow] = []
        var field: String?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else {
                field = nil
                continue
            }
            if let (label, value) = labelled(line) {
                if label == "criterion" {
                    rows.append(ReviewRow(criterion: value, score: nil, outOf: nil, evidence: "", why: ""))
                    field = label
                    continue
                }
                guard !rows.isEmpty else { continue }
                field = label
                switch label {
                case "score":
                    let (score, outOf) = self.score(value)
                    rows[rows.count - 1].score = score
                    rows[rows.count - 1].outOf = outOf
                    if score == nil, !isNotApplicable(value), !value.isEmpty {
                        rows[rows.count - 1].refusedScore = String(value.prefix(40))
                    }
                case "evidence":
                    rows[rows.count - 1].evidence = evidence(value)
                default:
                    rows[rows.count - 1].why = value
                }
            } else if let field, !rows.isEmpty {
                // A wrapped line goes on with the field above it.
                switch field {
                case "evidence": rows[rows.count - 1].evidence = evidence(rows[rows.count - 1].evidence + " " + line)
                case "why": rows[rows.count - 1].why += " " + line
                default: break
                }
            }
        }
        return rows.filter { !$0.criterion.isEmpty }
    }

    /// `Criterion:`, `Score:`, `Evidence:` or `Why:` (also `**Score:**`, `- Score:`, `1. Criterion:`) and the rest.
    private static func labelled(_ line: String) -> (String, String)? {
        var rest = Substring(line)
        rest = rest.drop { $0 == "-" || $0 == "*" || $0 == "#" || $0 == "•" || $0.isNumber || $0 == "." || $0 == ")" || $0 == " " }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        let label = rest[..<colon].filter { $0 != "*" }.trimmingCharacters(in: .whitespaces).lowercased()
        guard ["criterion", "score", "evidence", "why"].contains(label) else { return nil }
        let value = rest[rest.index(after: colon)...].drop { $0 == "*" || $0 == " " }
        return (label, value.trimmingCharacters(in: .whitespaces))
    }

    /// `N`, `N of M`, `N/M` or `N out of M`, ended by the text's end or by something not a letter or digit
    /// (`2 of 3 (strong)`); nil for anything else (`0x3`), and for a number of more than three digits.
    private static func score(_ text: String) -> (Int?, Int?) {
        let lower = text.lowercased()
        guard !isNotApplicable(lower), let match = lower.prefixMatch(of: scorePattern.regex) else { return (nil, nil) }
        if let next = lower[match.range.upperBound...].first, next.isLetter || next.isNumber { return (nil, nil) }
        let (score, outOf) = (match.output.1, match.output.2)
        guard score.count <= 3, outOf.map({ $0.count <= 3 }) ?? true else { return (nil, nil) }
        return (Int(score), outOf.flatMap { Int($0) })
    }

    private static func isNotApplicable(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("n/a") || lower.hasPrefix("na")
    }

    /// The quoted sentence without its quotation marks; empty for `none`.
    private static func evidence(_ text: String) -> String {
        var value = text.trimmingCharacters(in: .whitespaces)
        let quotes: [(Character, Character)] = [("\"", "\""), ("“", "”"), ("'", "'"), ("‘", "’"), ("«", "»")]
        if let first = value.first, let last = value.last, value.count >= 2,
            quotes.contains(where: { $0.0 == first && $0.1 == last })
        {
            value = String(value.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        let bare = value.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " .()[]"))
        return ["none", "n/a", "nothing", ""].contains(bare) ? "" : value
    }
}

/// A review as plain text for the terminal (through the sanitiser) and `replay`.
package enum ReviewText {
    /// Each criterion with its score, then its quotation (marked when it is not in the plan) and why, wrapped to
    /// `width` columns (nil: not wrapped, for a pipe); the summary line; and where the criteria come from.
    package static func render(_ review: LessonReview, source: String?, width: Int?) -> String {
        var out: [String] = []
        func hanging(_ text: String, first: String, rest: String) {
            guard let width else {
                out.append(first + text)
                return
            }
            let lines = TextWidth.wrap(text, width: max(20, width) - TextWidth.columns(rest))
            out += lines.enumerated().map { ($0.offset == 0 ? first : rest) + $0.element }
        }
        for row in review.rows {
            hanging("\(row.criterion): \(row.scoreText)", first: "", rest: "  ")
            hanging("Evidence: " + (row.evidence.isEmpty ? "none" : "“\(row.evidence)”"), first: "  ", rest: "    ")
            // The mark on a line of its own, so no wrapping parts it from what it says.
            if row.status == .notFound || row.status == .unchecked { hanging("✗ \(row.status.mark)", first: "    ", rest: "      ") }
            for mark in row.marks { hanging("✗ \(mark)", first: "  ", rest: "    ") }
            if !row.why.isEmpty { hanging("Why: \(row.why)", first: "  ", rest: "    ") }
        }
        hanging(review.summary, first: "", rest: "")
        if let source, !source.isEmpty { hanging(source, first: "", rest: "") }
        return out.joined(separator: "\n") + "\n"
    }
}
