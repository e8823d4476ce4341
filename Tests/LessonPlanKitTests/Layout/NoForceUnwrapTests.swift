import Foundation
import Testing

/// No force unwrap, `try!` or `as!` anywhere in the sources (STYLE.md): each is a crash a teacher would see.
@Suite struct NoForceUnwrapTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Sources")

    /// `x!`, `f()!`, `a[0]!`, `try!` and `as!` in code, after comments and string literals are removed.
    static func forceUnwraps(in text: String) -> [String] {
        let code =
            text
            .replacing(/"""[\s\S]*?"""/, with: "\"\"")
            .replacing(/\/\/[^\n]*/, with: "")
            .replacing(/"(?:\\.|[^"\\\n])*"/, with: "\"\"")
        return code.split(separator: "\n").filter { $0.contains(/[\w\)\]]!(?!=)/) }.map(String.init)
    }

    @Test func theScanFindsEachKind() {
        #expect(Self.forceUnwraps(in: "let a = names.last!\nlet b = try! f()\nlet c = x as! Int\n").count == 3)
        #expect(Self.forceUnwraps(in: "if a != b, !c { print(\"Done!\") } // really!\n").isEmpty)
    }

    @Test func noSourceFileForceUnwraps() throws {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            for line in Self.forceUnwraps(in: try String(contentsOf: url, encoding: .utf8)) {
                found.append("\(url.lastPathComponent): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
