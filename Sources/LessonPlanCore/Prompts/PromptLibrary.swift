import Foundation

/// A template that cannot be used, naming the file so a teacher can fix it.
package enum PromptError: Error, Equatable, Sendable, LocalizedError {
    case missingTemplate(name: String, location: String)
    case unknownPlaceholder(placeholder: String, file: String, line: Int)
    /// `{{` with no `}}` after it on its line: sent as written, the model would see the template's syntax.
    case unclosedPlaceholder(file: String, line: Int)
    case unreadable(file: String, reason: String)
    case missingDirectory(String)
    case badFramework(file: String, line: Int, reason: String)
    case unknownFramework(name: String, known: [String])

    package var errorDescription: String? {
        switch self {
        case .missingTemplate(let name, let location):
            "The prompt template \(name) is missing from \(location); add it, or drop --prompts / LESSONPLAN_PROMPTS to use the built-in templates."
        case .unknownPlaceholder(let placeholder, let file, let line):
            "\(file), line \(line): {{\(placeholder)}} is not a known placeholder; use one of \(PromptLibrary.placeholderNames.map { "{{\($0)}}" }.joined(separator: ", "))."
        case .unclosedPlaceholder(let file, let line):
            "\(file), line \(line): a placeholder opens with {{ but is not closed with }} on that line; close it, e.g. {{topic}}."
        case .unreadable(let file, let reason):
            "Cannot read the prompt template \(file) (\(reason)); it must be a UTF-8 text file."
        case .missingDirectory(let path):
            "The prompts directory \(path) does not exist; point --prompts or LESSONPLAN_PROMPTS at a folder of .txt templates."
        case .badFramework(let file, let line, let reason):
            "\(file), line \(line): \(reason)."
        case .unknownFramework(let name, let known):
            "“\(name)” is not a framework; use \(known.joined(separator: ", ")) (each is a folder under prompts/frameworks/)."
        }
    }
}

/// The prompt templates: built-in ones embedded at build time, or a folder that overrides them.
///
/// A template is plain text with `{{name}}` placeholders. A line whose placeholders all render
/// empty is dropped, so optional inputs such as standards leave no dangling label behind.
/// `{{headings}}` is the numbered list from the framework's `headings.txt`; `{{rules}}` is `rules.txt`
/// rendered with the same values; `{{framework}}` and the role placeholders (`{{cfu}}`, `{{warm_up}}` …)
/// come from the framework's `checks.txt`.
///
/// Frameworks are overlays: rendering for framework `5e` reads `frameworks/5e/<name>.txt` when that file
/// exists and `<name>.txt` otherwise, so a framework folder needs only `headings.txt` and `checks.txt`.
package struct PromptLibrary: Sendable {
    /// Every placeholder a template may use.
    package static let placeholderNames = [
        "grade", "grade_level", "from_grade_level", "topic", "minutes", "standards", "constraints", "plan", "headings", "rules",
        "from_grade", "from_minutes", "focus", "request", "problems", "level", "framework", "draft", "item_number",
        "from_framework", "expected_level", "section", "section_time", "section_rules", "warm_up", "warm_up_minutes", "cfu", "cfu_questions",
        "exit_ticket",
        "exit_ticket_prompts", "sections", "quiz_kind", "quiz_items", "quiz_focus", "rubric_levels", "rubric_level_names",
        "rubric_header", "rubric_rule", "sources", "cite_form", "review_criteria", "review_scale", "review_top",
        "lessons", "lesson_number", "lesson_title", "lesson_objective", "builds_on", "unit_overview", "earlier_lessons",
    ]

    /// Where the templates came from, for messages and `doctor`.
    package let location: String
    private let files: [String: String]
    /// The reference documents (`documents/reference.docx` …) pandoc takes styles from, by relative path.
    private let binaries: [String: Data]

    /// The templates compiled into the binary from the repository's `prompts/` folder.
    package static let builtIn = PromptLibrary(
        location: "the built-in templates", files: EmbeddedPrompts.files,
        binaries: EmbeddedPrompts.binaryFiles.compactMapValues { Data(base64Encoded: $0) })

    init(location: String, files: [String: String], binaries: [String: Data] = [:]) {
        self.location = location
        self.files = files
        self.binaries = binaries
    }

    /// The file types a prompts folder may hold reference documents of, for the documents a teacher can edit.
    static let referenceDocumentExtensions: Set<String> = ["docx", "odt", "pptx"]

    /// The reference document for a file type (`docx` → `documents/reference.docx`): the folder's own, else the built-in one.
    package func referenceDocument(for fileExtension: String) -> Data? {
        let key = "documents/reference.\(fileExtension)"
        return binaries[key] ?? (location == Self.builtIn.location ? nil : Self.builtIn.binaries[key])
    }

    /// Loads every `.txt` file under `directory` (subfolders included), keyed by relative path, and any
    /// `.docx`, `.odt` or `.pptx` reference documents.
    /// - Throws: ``PromptError`` when the folder is missing or a file is not UTF-8 text.
    package static func load(directory: URL) throws(PromptError) -> PromptLibrary {
        let root = directory.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw .missingDirectory(root.path) }
        var files: [String: String] = [:]
        var binaries: [String: Data] = [:]
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let path = url.standardizedFileURL.path
            let key = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : url.lastPathComponent
            if Self.referenceDocumentExtensions.contains(url.pathExtension), let data = FileManager.default.contents(atPath: path) {
                binaries[key] = data
                continue
            }
            guard url.pathExtension == "txt" else { continue }
            do {
                files[key] = try String(contentsOf: url, encoding: .utf8)
            } catch {
                throw .unreadable(file: path, reason: "not UTF-8 text or not readable")
            }
        }
        return PromptLibrary(location: root.path, files: files, binaries: binaries)
    }

    /// The names of the templates present, without `.txt`.
    package var templateNames: [String] {
        files.keys.filter { $0.hasSuffix(".txt") }.map { String($0.dropLast(4)) }.sorted()
    }

    /// The raw text of a template, e.g. `"shorten"` for `shorten.txt`.
    package func text(of name: String) throws(PromptError) -> String {
        guard let text = files[name + ".txt"] else {
            throw .missingTemplate(name: name + ".txt", location: location)
        }
        return text
    }

    /// The headings a plan of the default framework must have, one per non-empty line of `headings.txt`.
    package func headings() throws(PromptError) -> [String] {
        try framework(Framework.defaultName).headings
    }

    /// The frameworks present: `default`, then every folder under `frameworks/` that has a `headings.txt`.
    package var frameworkNames: [String] {
        var names = [Framework.defaultName]
        for key in files.keys.sorted() where key.hasPrefix("frameworks/") && key.hasSuffix("/headings.txt") {
            let name = String(key.dropFirst("frameworks/".count).dropLast("/headings.txt".count))
            if !name.isEmpty, !name.contains("/"), !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The framework called `name`, read from its `headings.txt` and `checks.txt`.
    /// - Throws: ``PromptError/unknownFramework(name:known:)`` when there is no such folder, or the
    ///   ``PromptError/badFramework(file:line:reason:)`` of a broken `checks.txt`.
    package func framework(_ name: String) throws(PromptError) -> Framework {
        let key = name.lowercased()
        guard frameworkNames.contains(key) else { throw .unknownFramework(name: name, known: frameworkNames) }
        // headings.txt and checks.txt belong together: a framework never inherits the default's checks.
        let own = "frameworks/\(key)/"
        let headingsName = files[own + "headings.txt"] != nil ? own + "headings" : "headings"
        let checksName = files[own + "headings.txt"] != nil ? own + "checks" : "checks"
        // Without a checks.txt (an older prompts folder, say) only headings and pacing are checked.
        var framework = try Framework.parse(
            name: key, headings: try text(of: headingsName), checks: files[checksName + ".txt"],
            headingsFile: fileDescription(headingsName), checksFile: fileDescription(checksName))
        framework.checkWords = checkWords
        return framework
    }

    /// The content check's word lists: each of the folder's `observable-verbs.txt`, `task-verbs.txt` and
    /// `material-nouns.txt`, else the built-in one.
    package var checkWords: CheckWords {
        func list(_ name: String) -> String { files[name] ?? EmbeddedPrompts.files[name] ?? "" }
        return CheckWords(
            verbs: list("observable-verbs.txt"), tasks: list("task-verbs.txt"), materials: list("material-nouns.txt"))
    }

    /// First names that are also ordinary words (will, grace, may): a class's name among them is swapped for its
    /// pseudonym only when capitalised. The folder's `name-words.txt`, else the built-in list; one word a line.
    package var ordinaryNameWords: Set<String> {
        let text = files["name-words.txt"] ?? EmbeddedPrompts.files["name-words.txt"] ?? ""
        return Set(
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    /// The first names the tool asks the teacher about before sending a request: the folder's `first-names.txt`,
    /// else the built-in list.
    package var nameSpotter: NameSpotter { files["first-names.txt"].map(NameSpotter.init(names:)) ?? .builtIn }

    /// The verbs a unit's lessons climb, least demanding first: the folder's `unit-progression.txt`, else the
    /// built-in list; one word a line, `#` lines and blank lines ignored.
    package var unitProgression: [String] {
        let text = files["unit-progression.txt"] ?? EmbeddedPrompts.files["unit-progression.txt"] ?? ""
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// A file of data a command reads beside its template (criteria to score against, say): the folder's own, else
    /// the built-in one; empty when neither has it.
    package func dataFile(_ name: String) -> String {
        files[name] ?? (location == Self.builtIn.location ? "" : Self.builtIn.dataFile(name))
    }

    /// The template `name` as framework `framework` sees it: its own copy if it has one, else the shared one.
    /// - Throws: ``PromptError/missingTemplate(name:location:)`` when neither exists.
    package func overlayName(_ name: String, framework: String) throws(PromptError) -> String {
        let own = "frameworks/\(framework)/\(name)"
        if files[own + ".txt"] != nil { return own }
        _ = try text(of: name)
        return name
    }

    /// Renders a template with `values` for `framework`, adding `{{headings}}`, `{{rules}}` and the framework's roles.
    /// - Throws: ``PromptError`` for a missing template, an unknown framework or a placeholder this tool does not know.
    package func render(_ name: String, values: [String: String], framework: String = Framework.defaultName)
        throws(PromptError) -> String
    {
        try render(name, values: values, framework: try self.framework(framework))
    }

    /// Renders a template for an already parsed framework, so `validate` parses each framework once, not per template.
    func render(_ name: String, values: [String: String], framework chosen: Framework) throws(PromptError) -> String {
        var all = chosen.ruleValues
        all.merge(values) { _, given in given }
        let numbered = chosen.headings.enumerated().map { "\($0.offset + 1)) \($0.element)" }
        all["headings"] = numbered.joined(separator: "\n")
        let file = try overlayName(name, framework: chosen.name)
        if all["rules"] == nil, name != "rules" {
            let rules = try overlayName("rules", framework: chosen.name)
            all["rules"] = try Self.substitute(try text(of: rules), values: all, file: fileDescription(rules))
        }
        return try Self.substitute(try text(of: file), values: all, file: fileDescription(file))
    }

    /// Renders every template once with sample values for every framework, so a broken folder is reported at start.
    package func validate(templates: [String]) throws(PromptError) {
        let sample = Dictionary(uniqueKeysWithValues: Self.placeholderNames.map { ($0, "x") })
        for name in frameworkNames {
            let framework = try self.framework(name)
            for template in templates {
                _ = try render(template, values: sample, framework: framework)
            }
        }
    }

    private func fileDescription(_ name: String) -> String {
        location == Self.builtIn.location ? "prompts/\(name).txt (built in)" : "\(location)/\(name).txt"
    }

    /// Replaces `{{name}}` placeholders line by line, dropping lines whose placeholders were all empty.
    static func substitute(_ template: String, values: [String: String], file: String) throws(PromptError)
        -> String
    {
        var output: [String] = []
        let lines = template.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            var rendered = ""
            var rest = Substring(line)
            var placeholders = 0
            var emptyPlaceholders = 0
            while let open = rest.range(of: "{{") {
                rendered += rest[..<open.lowerBound]
                guard let close = rest[open.upperBound...].range(of: "}}") else {
                    throw .unclosedPlaceholder(file: file, line: index + 1)
                }
                let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                guard let value = values[name] ?? (placeholderNames.contains(name) ? "" : nil) else {
                    throw .unknownPlaceholder(placeholder: name, file: file, line: index + 1)
                }
                placeholders += 1
                if value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { emptyPlaceholders += 1 }
                rendered += value
                rest = rest[close.upperBound...]
            }
            rendered += rest
            if placeholders > 0, placeholders == emptyPlaceholders { continue }
            output.append(rendered)
        }
        return output.joined(separator: "\n")
    }
}
