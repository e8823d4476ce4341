extension [String] {
    /// The items as a sentence lists them: "a", "a and b", "a, b and c" (with "or" for `conjunction: "or"`).
    package func listed(_ conjunction: String = "and") -> String {
        guard count > 1, let last else { return first ?? "" }
        return dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }
}

/// "1 version", "2 versions": counts read as words, never "version(s)".
package func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
