/// A regex compiled once and shared, for patterns that plan checks and parsing use on every line.
///
/// A regex literal is parsed and compiled each time the expression runs, so a literal inside a
/// function called per line (or per plan check) paid that cost on every call. A `static let` of a
/// `Regex` is what we want, but Swift 6 refuses it: `Regex` does not conform to `Sendable`, because its
/// output type could hold anything. This wrapper holds a `let` regex whose output is only substrings and
/// optional substrings, and exposes nothing that mutates it. The one piece of mutable state inside a
/// `Regex` is the compiled program it caches on first use, and the standard library publishes that with
/// an atomic compare-and-swap, so matching the same regex from several threads is safe; that is the
/// reason for `@unchecked`. Use it only for patterns without custom captures or transforms.
struct SharedRegex<Output>: RegexComponent, @unchecked Sendable {
    let regex: Regex<Output>

    init(_ regex: Regex<Output>) {
        self.regex = regex
    }
}
