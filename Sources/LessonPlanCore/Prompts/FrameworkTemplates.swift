import Foundation

/// Reading a framework from its prompt templates (`headings.txt`, `checks.txt`).
extension Framework {
    /// Reads a framework from the text of its `headings.txt` and `checks.txt`.
    ///
    /// `checks.txt` has one `key: value` per line; blank lines and lines starting with `#` are ignored:
    /// - `title:` how prompts name the framework (default: its folder name);
    /// - `warm-up:` a heading and `warm-up minutes:` the minutes it must take (both or neither);
    /// - `cfu:` the heading whose questions are counted, `cfu questions:` how many at least (default 3);
    /// - `exit ticket:` the heading whose prompts are counted, `exit ticket prompts:` how many exactly (default 3);
    /// - `unpaced:` a heading left out of pacing (repeatable), such as homework;
    /// - `student-facing:` a heading students read, for the reading level (repeatable);
    /// - `untimed:` a heading that takes no class time of its own, such as the objective (repeatable);
    /// - `objective:` the heading that states the learning objective, `materials:` the one that lists
    ///   materials, and `activity:` an instruction or practice heading (repeatable), for the content check.
    /// Every heading named must be one of `headings.txt`, matched as the plan check matches headings.
    /// - Parameters:
    ///   - name: The framework's name.
    ///   - headings: The text of `headings.txt`.
    ///   - checks: The text of `checks.txt`, or nil when there is none (then nothing but headings and pacing is checked).
    ///   - headingsFile: How to name `headings.txt` in an error.
    ///   - checksFile: How to name `checks.txt` in an error.
    /// - Throws: ``PromptError/badFramework(file:line:reason:)`` for an unknown key, a heading that is not listed, or a bad number.
    package static func parse(
        name: String, headings headingsText: String, checks: String?, headingsFile: String, checksFile: String
    ) throws(PromptError) -> Framework {
        let headings = headingsText.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !headings.isEmpty else {
            throw .badFramework(file: headingsFile, line: 1, reason: "it lists no headings; write one heading per line")
        }
        // Keyed once here, not per checks.txt line: matching a value compares it with every heading.
        let headingKeys = headings.map(PlanDocument.key)
        var framework = Framework(name: name, headings: headings)
        guard let checks else { return framework }
        var warmUpLine = 0
        var sawWarmUpMinutes = false
        for (index, raw) in checks.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let number = index + 1
            guard let colon = line.firstIndex(of: ":") else {
                throw .badFramework(file: checksFile, line: number, reason: "write “key: value”, e.g. “cfu: Check for Understanding”")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            func heading() throws(PromptError) -> String? {
                if value.lowercased() == "none" || value.isEmpty { return nil }
                let valueKey = PlanDocument.key(value)
                guard let position = headingKeys.firstIndex(of: valueKey) else {
                    throw .badFramework(
                        file: checksFile, line: number,
                        reason: "“\(value)” is not one of the headings in \(headingsFile)")
                }
                return headings[position]
            }
            func count() throws(PromptError) -> Int {
                guard let count = Int(value), (1...50).contains(count) else {
                    throw .badFramework(file: checksFile, line: number, reason: "“\(value)” is not a whole number from 1 to 50")
                }
                return count
            }
            switch key {
            case "title": framework.title = value.isEmpty ? name : value
            case "warm-up", "warm up", "warmup":
                framework.warmUpHeading = try heading()
                warmUpLine = number
            case "warm-up minutes", "warm up minutes", "warmup minutes":
                framework.warmUpMinutes = try count()
                sawWarmUpMinutes = true
            case "cfu": framework.cfuHeading = try heading()
            case "cfu questions": framework.cfuQuestions = try count()
            case "exit ticket": framework.exitTicketHeading = try heading()
            case "exit ticket prompts": framework.exitTicketPrompts = try count()
            case "unpaced": if let heading = try heading() { framework.unpacedHeadings.append(heading) }
            case "student-facing", "student facing":
                if let heading = try heading() { framework.studentFacingHeadings.append(heading) }
            case "untimed": if let heading = try heading() { framework.untimedHeadings.append(heading) }
            case "objective": framework.objectiveHeading = try heading()
            case "materials": framework.materialsHeading = try heading()
            case "activity": if let heading = try heading() { framework.activityHeadings.append(heading) }
            default:
                throw .badFramework(
                    file: checksFile, line: number,
                    reason:
                        "“\(key)” is not a check; use title, warm-up, warm-up minutes, cfu, cfu questions, exit ticket, exit ticket prompts, unpaced, untimed, student-facing, objective, materials or activity"
                )
            }
        }
        if framework.warmUpHeading != nil, !sawWarmUpMinutes {
            throw .badFramework(file: checksFile, line: warmUpLine, reason: "a warm-up needs “warm-up minutes: N” too")
        }
        if framework.warmUpHeading == nil { framework.warmUpMinutes = nil }
        return framework
    }
}
