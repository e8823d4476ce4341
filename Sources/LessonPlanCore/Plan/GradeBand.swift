import Foundation

/// The four grade bands a plan is written for, shown with an en dash as teachers write them.
package enum GradeBand: String, CaseIterable, Codable, Sendable, Hashable {
    case kTo2 = "K–2"
    case threeTo5 = "3–5"
    case sixTo8 = "6–8"
    case nineTo12 = "9–12"

    /// The forms accepted by ``parse(_:)``, for error messages and help.
    package static let acceptedForms =
        "K–2, 3–5, 6–8 or 9–12 (also written 3-5, 3 to 5, grades 3-5, or a single grade such as K, 4, 7th grade, grade 7 or seventh grade)"

    /// The grades the band spans, kindergarten as 0.
    package var grades: ClosedRange<Int> {
        switch self {
        case .kTo2: 0...2
        case .threeTo5: 3...5
        case .sixTo8: 6...8
        case .nineTo12: 9...12
        }
    }

    /// The band that contains a single grade (0 is kindergarten).
    package init?(grade: Int) {
        guard let band = GradeBand.allCases.first(where: { $0.grades.contains(grade) }) else { return nil }
        self = band
    }

    /// Reads a band the way teachers type it: `3-5`, `3–5`, `3 to 5`, `grades 3-5`, `k-2`, `4`, `K`.
    /// - Throws: ``InputError/gradeBand(_:)`` naming the accepted forms.
    package static func parse(_ text: String) throws(InputError) -> GradeBand {
        try parseGiven(text).band
    }

    /// Reads a band as ``parse(_:)`` does, keeping the one grade a teacher gave (`4`, `K` → 0), or nil for a range.
    /// - Throws: ``InputError/gradeBand(_:)`` naming the accepted forms.
    package static func parseGiven(_ text: String) throws(InputError) -> (band: GradeBand, grade: Int?) {
        var s = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        for prefix in ["grades", "grade", "gr.", "gr"] where s.hasPrefix(prefix) {
            s = String(s.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        // As a person writes it after the number: `7th grade`, `3rd-5th grades`, `seventh graders`.
        for suffix in ["graders", "grades", "grade", "gr."] where s.hasSuffix(suffix) && s.count > suffix.count {
            s = String(s.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        // Grades in words: `seventh`, `first`; a word only where it stands whole.
        s = s.split(separator: " ", omittingEmptySubsequences: false)
            .map { word in ordinalWords[String(word)].map(String.init) ?? String(word) }.joined(separator: " ")
        // Every dash-like character and the word "to" separate the two ends of a range.
        for dash in ["–", "—", "‒", "―", "−", "‐", "‑", " to ", "-"] {
            s = s.replacingOccurrences(of: dash, with: "-")
        }
        let ends = s.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        switch ends.count {
        case 1:
            if let grade = singleGrade(ends[0]), let band = GradeBand(grade: grade) { return (band, grade) }
        case 2:
            if let low = singleGrade(ends[0]), let high = singleGrade(ends[1]), low <= high,
                let band = GradeBand.allCases.first(where: { $0.grades == low...high })
            {
                return (band, nil)
            }
        default:
            break
        }
        throw .gradeBand(text)
    }

    /// Grades written as words, as in "seventh grade".
    private static let ordinalWords: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
    ]

    /// How a grade reads in a sentence: `K` for kindergarten, else its number.
    package static func gradeName(_ grade: Int) -> String { grade == 0 ? "K" : String(grade) }

    private static func singleGrade(_ text: String) -> Int? {
        switch text {
        case "k", "kg", "kindergarten": return 0
        default:
            var digits = text
            for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) {
                digits = String(digits.dropLast(suffix.count))
            }
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let grade = Int(digits) else { return nil }
            return (0...12).contains(grade) ? grade : nil
        }
    }
}
