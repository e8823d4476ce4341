import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanKit
import TestSupport
import Testing

/// Issue 24's whole session, as a teacher makes and prints it: a plan, handouts, an exit and a starter quiz of
/// 15 items each and a rubric, the plan hand-edited once (`/edit` in a real terminal), then every export in
/// html, docx, odt and pptx, printed (Chromium for html, LibreOffice for the rest) and read back page by page.
/// `scripts/render-docs` keeps pictures of the pages in `docs/`.
@Suite(.serialized) struct PrintedSessionTests {
    /// A printed document's text, page by page (pdftotext's form feeds), each page as trimmed non-empty lines.
    static func pages(_ text: String) -> [[String]] {
        text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map { page in
            page.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }.filter { !$0.isEmpty }
    }

    /// The headings of an HTML page, with their levels, in order.
    static func htmlHeadings(_ html: String) -> [(level: Int, text: String)] {
        let pattern = try? NSRegularExpression(pattern: "<h([1-6])>(.*?)</h\\1>")
        let range = NSRange(html.startIndex..., in: html)
        return (pattern?.matches(in: html, range: range) ?? []).compactMap { match in
            guard let level = Range(match.range(at: 1), in: html), let text = Range(match.range(at: 2), in: html) else { return nil }
            let unescaped = String(html[text]).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#39;", with: "'")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(
                    of: "&gt;", with: ">")
            return (Int(html[level]) ?? 0, unescaped)
        }
    }

    /// The headings of a docx or odt as pandoc reads the file back, with their levels, in order.
    static func pandocHeadings(_ file: URL) async throws -> [(level: Int, text: String)] {
        let script = #"""
            import json, subprocess, sys
            path = sys.stdin.readline().strip()
            doc = json.loads(subprocess.run(["pandoc", "-t", "json", path], capture_output=True, check=True).stdout)
            def text(inlines):
                out = ""
                for i in inlines:
                    t = i.get("t")
                    if t == "Str": out += i["c"]
                    elif t in ("Space", "SoftBreak", "LineBreak"): out += " "
                    elif t in ("Strong", "Emph", "Span", "Underline"): out += text(i["c"][-1] if t == "Span" else i["c"])
                return out
            def walk(blocks):
                for b in blocks:
                    if b["t"] == "Header": print("%d|%s" % (b["c"][0], text(b["c"][2])))
                    elif b["t"] == "Div": walk(b["c"][1])
            walk(doc["blocks"])
            """#
        let result = try await Python.run(script, input: Data((file.path + "\n").utf8))
        guard result.status == 0 else { throw PrintedPage.Failure(description: "pandoc cannot read \(file.lastPathComponent): \(result.output)") }
        return result.output.split(separator: "\n").compactMap { line in
            guard let bar = line.firstIndex(of: "|"), let level = Int(line[..<bar]) else { return nil }
            return (level, String(line[bar...].dropFirst()))
        }
    }

    /// Problems with a printout: a quiz item whose options leave its page, a heading last on its page, a heading
    /// not there exactly once, the exit ticket split.
    static func paperProblems(_ text: String, headings: [String], exitTicket: [String], once: Bool) -> [String] {
        let pages = pages(text)
        var problems: [String] = []
        // Quiz items: a stem `N. Question N on Tides…` and the options of item N after it stay on its page.
        var stem: (number: Int, page: Int)?
        let stemPattern = try? NSRegularExpression(pattern: "Question (\\d+) on Tides")
        let optionPattern = try? NSRegularExpression(pattern: "(?:The right idea |Wrong idea [ABC])(\\d+)\\b")
        func number(_ pattern: NSRegularExpression?, _ line: String) -> Int? {
            guard let match = pattern?.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                let range = Range(match.range(at: 1), in: line)
            else { return nil }
            return Int(line[range])
        }
        for (index, page) in pages.enumerated() {
            if page.contains(where: { $0.hasPrefix("Answer key") }) { break }
            for line in page {
                if let n = number(stemPattern, line) { stem = (n, index) }
                if let n = number(optionPattern, line), let open = stem, open.number == n, open.page != index {
                    problems.append("quiz item \(n) starts on page \(open.page + 1) but an option is on page \(index + 1)")
                }
            }
            if let last = page.last, headings.contains(where: { last == $0 || last.hasSuffix(" " + $0) }) {
                problems.append("page \(index + 1) ends with the heading “\(last)”")
            }
        }
        for heading in headings {
            let count = pages.joined().filter { $0 == heading }.count
            // A teacher's pacing table and timeline name the sections too; a handout prints each part once.
            if once ? count != 1 : count < 1 { problems.append("the heading “\(heading)” is printed \(count) times") }
        }
        if let slip = pages.firstIndex(where: { $0.contains("Exit ticket") }) {
            for line in exitTicket where !pages[slip].contains(where: { $0.contains(line.prefix(30)) }) {
                problems.append("the exit ticket's “\(line)” is not on its page (\(slip + 1))")
            }
        } else if !exitTicket.isEmpty {
            problems.append("no page holds the exit ticket")
        }
        return problems
    }

    /// The slides' font sizes in points, as LibreOffice printed them (pdftotext -bbox: a word's box is its line
    /// height, about 1.17 times its size in the fonts the template uses).
    static func slideTextHeights(_ pdf: URL) async throws -> [(page: Int, word: String, height: Double)] {
        let script = #"""
            import re, subprocess, sys, html
            path = sys.stdin.readline().strip()
            out = subprocess.run(["pdftotext", "-bbox", path, "-"], capture_output=True, check=True, text=True).stdout
            page = 0
            for line in out.splitlines():
                if "<page " in line: page += 1
                m = re.search(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">(.*)</word>', line)
                if m: print("%d|%.2f|%s" % (page, float(m.group(2)) - float(m.group(1)), html.unescape(m.group(3))))
            """#
        let result = try await Python.run(script, input: Data((pdf.path + "\n").utf8))
        guard result.status == 0 else { throw PrintedPage.Failure(description: "pdftotext -bbox failed: \(result.output)") }
        return result.output.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "|", maxSplits: 2).map(String.init)
            guard parts.count == 3, let page = Int(parts[0]), let height = Double(parts[1]) else { return nil }
            return (page, parts[2], height)
        }
    }

    @Test func aHandEditedSessionPrintsEveryPartOnceInOrderWholeAndWithNoTeacherNoteOnAStudentPage() async throws {
        let server = try await FakeOpenAIServer()
        let binary = try LessonplanBinary(baseURL: server.baseURL)
        defer { binary.removeHome() }
        let made = try await binary.run(
            ["--grade", "6-8", "--topic", "Tides", "--minutes", "45", "--name", "print"],
            input: "/materials\n/quiz exit 15\n/quiz starter 15\n/rubric\n/quit\n")
        #expect(made.status == 0, "\(made.stderr)")

        // One hand edit, in a real terminal: a typo fixed in the plan's objective.
        let editor = binary.home.appending(path: "fix-typo.sh")
        try Executable.write("#!/bin/sh\nsed -i 's/key ideas of/main ideas of/' \"$1\"\n", to: editor)
        var environment = binary.environment
        environment["TERM"] = "screen"
        environment["EDITOR"] = editor.path
        environment["VISUAL"] = editor.path
        let terminal = try TerminalSession(columns: 80, rows: 40, environment: environment)
        defer { terminal.close() }
        try terminal.type("'\(binary.url.path)' resume print")
        try await terminal.waitFor("v1]>", timeout: .seconds(60))
        try terminal.type("/edit")
        try await terminal.waitFor("v2]>", timeout: .seconds(60))
        try terminal.type("/show quiz 1")
        let shownQuiz = try await terminal.waitFor("── quiz 1 · exit · 15 items · from v1")
        #expect(!shownQuiz.contains("This quiz was made from v1, but the plan is now v2"), "\(shownQuiz)")
        try terminal.type("/quit")

        let out = binary.home.appending(path: "out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let formats = ["html", "docx", "odt", "pptx"]
        var script = ""
        for format in formats {
            script += "/export \(format) \(out.path)/plan.\(format)\n/export materials \(format) \(out.path)/handouts.\(format)\n"
        }
        script += "/export md \(out.path)/plan.md\n/export materials md \(out.path)/handouts.md\n"
        script += "/export json \(out.path)/plan.json\n/export materials json \(out.path)/handouts.json\n/quit\n"
        let exported = try await binary.run(["resume", "print"], input: script, timeout: .seconds(240))
        #expect(exported.status == 0, "\(exported.stderr)")
        // The edit kept the lesson, so nothing is left out; the stale handouts are the teacher's news, in the terminal.
        #expect(!exported.stderr.contains("left out"), "\(exported.stderr)")
        #expect(exported.stderr.contains("These handouts were made from v1, but the plan is now v2"), "\(exported.stderr)")

        let framework = try PromptLibrary.builtIn.framework(Framework.defaultName)
        let planJSON = try PlanExport.decodeJSON(try Data(contentsOf: out.appending(path: "plan.json")))
        let handoutJSON = try PlanExport.decodeJSON(try Data(contentsOf: out.appending(path: "handouts.json")))
        #expect(planJSON.currentVersion == 2 && planJSON.quizzes.map(\.kind) == [.starter, .exit], "both quizzes, starter first")
        #expect(planJSON.quizzes.allSatisfy { $0.items.count == 15 } && planJSON.rubric != nil)
        #expect(handoutJSON.quizzes.map(\.kind) == [.starter, .exit] && handoutJSON.rubric != nil)

        // The parts each export must have, from the plan documents themselves.
        let handoutPlan = PlanDocument(parsing: handoutJSON.currentText, headings: framework.headings)
        let handoutSections = handoutPlan.blocks.compactMap { block -> String? in
            if case .heading(let heading) = block, heading.teacher == nil { return heading.plainText }
            return nil
        }
        #expect(handoutSections.count >= 3, "\(handoutSections)")
        let rubricTitle = "Rubric: " + (handoutJSON.rubric?.task ?? "")
        let handoutParts = ["Starter quiz"] + handoutSections + ["Exit quiz", rubricTitle]
        let planDocument = PlanDocument(parsing: planJSON.currentText, headings: framework.headings)
        let planSections = planDocument.blocks.compactMap { block -> String? in
            if case .heading(let heading) = block, heading.opensSection { return heading.text }
            return nil
        }
        let planParts =
            ["Pacing"] + planSections
            + ["Starter quiz", "Exit quiz", rubricTitle, "Answer key: starter quiz", "Answer key: exit quiz"]
        let exitTicket: [String] = {
            guard
                let start = handoutPlan.blocks.firstIndex(where: {
                    if case .heading(let h) = $0 { h.plainText.lowercased().contains("exit ticket") } else { false }
                })
            else { return [] }
            return handoutPlan.blocks[(start + 1)...].prefix { if case .heading = $0 { false } else { true } }.compactMap {
                if case .item(let item) = $0 { item.text } else { nil }
            }
        }()
        #expect(!exitTicket.isEmpty)

        // Markdown and HTML: the same parts, in order, the handout's all at one level.
        let handoutMarkdown = try String(contentsOf: out.appending(path: "handouts.md"), encoding: .utf8)
        let markdownHeadings = handoutMarkdown.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(markdownHeadings.dropFirst().map { String($0) } == handoutParts.map { "## " + $0 }, "\(markdownHeadings)")
        let handoutHTML = try String(contentsOf: out.appending(path: "handouts.html"), encoding: .utf8)
        #expect(Self.htmlHeadings(handoutHTML).dropFirst().map(\.text) == handoutParts)
        #expect(Self.htmlHeadings(handoutHTML).dropFirst().allSatisfy { $0.level == 2 })
        let planHTML = try String(contentsOf: out.appending(path: "plan.html"), encoding: .utf8)
        // The printed page shows the pacing once before the plan (a table) and its timeline after the plan.
        let planHTMLParts = ["Pacing"] + planSections + ["Timeline"] + planParts.dropFirst(1 + planSections.count)
        #expect(Self.htmlHeadings(planHTML).filter { $0.level == 2 }.map(\.text) == planHTMLParts)
        // Handouts made from v1 while the plan is v2: the teacher's copy says so, the students' sheets do not.
        let staleNote = "The handouts were made from v1, but this plan is v2"
        #expect(planHTML.contains(staleNote))
        #expect(try String(contentsOf: out.appending(path: "plan.md"), encoding: .utf8).contains(staleNote))
        for hidden in ["Made from plan", "/materials", "Answer key", "Misconception", "mixes up"] {
            #expect(!handoutHTML.contains(hidden) && !handoutMarkdown.contains(hidden), "a handout shows “\(hidden)”")
        }

        // docx and odt read back by pandoc: the same parts at the same levels.
        for format in ["docx", "odt"] {
            let handout = try await Self.pandocHeadings(out.appending(path: "handouts.\(format)"))
            #expect(handout.map(\.text) == handoutParts, "\(format): \(handout)")
            #expect(handout.allSatisfy { $0.level == 1 }, "\(format): \(handout)")
            let plan = try await Self.pandocHeadings(out.appending(path: "plan.\(format)")).filter { $0.level == 1 }
            #expect(plan.map(\.text) == planParts, "\(format): \(plan)")
        }
        // odt tables are ruled like docx and html ones: every cell of the pacing and rubric tables has a border.
        let content = try await OfficeDocument.member("content.xml", of: out.appending(path: "plan.odt"))
        #expect(content.contains("style:name=\"LessonplanRuledCell\"") && content.contains("fo:border=\"0.5pt solid"))
        #expect(!content.contains("table:style-name=\"TableRowCell\""), "a table with pandoc's unruled cells")
        #expect(content.components(separatedBy: "table:style-name=\"LessonplanRuledCell\"").count > 20)

        // Slides: the starter quiz before the lesson, the exit quiz after it, the rubric a criterion a slide.
        for name in ["plan", "handouts"] {
            let deck = try await OfficeDocument.paragraphs(of: out.appending(path: "\(name).pptx")).filter { $0.style.hasPrefix("slide") }
            let slides = Dictionary(grouping: deck, by: \.style).sorted { Int($0.key.dropFirst(5)) ?? 0 < Int($1.key.dropFirst(5)) ?? 0 }
            let titles = slides.dropFirst().compactMap { $0.value.first?.text }
            let sections = name == "plan" ? planSections : handoutSections
            let lesson = titles.filter { !$0.contains(" quiz · question ") && !$0.contains(" of 3)") }
            #expect(titles.prefix(15).allSatisfy { $0.hasPrefix("Starter quiz · question ") }, "\(name): \(titles)")
            #expect(Array(titles.dropFirst(15).prefix(lesson.count)) == lesson, "\(name): the lesson comes after the starter quiz")
            #expect(titles.dropFirst(15 + lesson.count).prefix(15).allSatisfy { $0.hasPrefix("Exit quiz · question ") })
            #expect(titles.suffix(3).allSatisfy { $0.contains(" of 3)") }, "\(name): \(titles.suffix(4))")
            #expect(lesson.allSatisfy { title in sections.contains { DocumentExportTitle.matches(title, $0) } }, "\(name): \(lesson)")
            if name == "handouts" { #expect(lesson.count == handoutSections.count, "every handout part has a slide: \(lesson)") }
            for (style, paragraphs) in slides.dropFirst() {
                #expect(paragraphs.count >= 2, "\(name) \(style) has no body text: \(paragraphs)")
            }
            // Every option letter is followed by a space in the slide's own text.
            let options = deck.map(\.text).filter { $0.range(of: #"^[A-C]\)"#, options: .regularExpression) != nil }
            #expect(options.count == 90 && options.allSatisfy { $0.dropFirst(2).first == " " }, "\(options.prefix(3))")
        }

        // Printed: page by page.
        let printed = out.appending(path: "printed")
        try FileManager.default.createDirectory(at: printed, withIntermediateDirectories: true)
        for format in formats {
            for name in ["plan", "handouts"] {
                let file = out.appending(path: "\(name).\(format)")
                let pdf: URL
                if format == "html" {
                    pdf = try await PrintedPage.pdf(html: try String(contentsOf: file, encoding: .utf8), name: "\(name)-html", in: printed)
                } else {
                    pdf = try await OfficeDocument.pdf(of: file)
                }
                let text = try await PrintedPage.text(of: pdf)
                let pages = Self.pages(text)
                try await keepPages(pdf, as: "session-\(name)-\(format)", count: format == "pptx" ? 0 : pages.count)
                if format == "pptx" {
                    // Every slide prints text below its title, none of it under 18 pt.
                    #expect(pages.dropFirst().allSatisfy { $0.count >= 2 }, "\(name).pptx: a slide without body text")
                    let heights = try await Self.slideTextHeights(pdf)
                    let small = heights.filter { $0.height < 18 * 1.17 - 0.5 }
                    #expect(small.isEmpty, "\(name).pptx: text under 18 pt: \(small.prefix(5))")
                    try await keepPages(pdf, as: "session-\(name)-pptx", pages: [1, 2, 17, 18, pages.count])
                    continue
                }
                let handout = name == "handouts"
                let headings = handout ? handoutParts : planParts.filter { !$0.hasPrefix("Answer key") }
                let slip = handout ? exitTicket : []
                let problems = Self.paperProblems(text, headings: headings, exitTicket: slip, once: handout)
                #expect(problems.isEmpty, "\(name).\(format): \(problems)")
                if handout {
                    for hidden in ["Made from plan", "/materials", "Answer key", "Misconception", "mixes up", "Pacing"] {
                        #expect(!text.contains(hidden), "\(name).\(format) prints “\(hidden)” on a student page")
                    }
                    // Each quiz on a page of its own, the starter quiz first.
                    let starter = try #require(pages.firstIndex { $0.contains("Starter quiz") })
                    let exit = try #require(pages.firstIndex { $0.contains("Exit quiz") })
                    #expect(starter < exit)
                    #expect(!pages[starter].contains { handoutSections.contains($0) }, "\(format): the starter quiz shares its page")
                    #expect(!pages[exit].contains { handoutSections.contains($0) }, "\(format): the exit quiz shares its page")
                } else {
                    // The teacher's page 1 shows the plan's start.
                    #expect(pages[0].contains { $0.contains(planSections[0]) }, "\(format): page 1 is \(pages[0])")
                    let stale = pages.joined().joined(separator: " ").contains("The handouts were made from v1")
                    #expect(stale, "\(format): the teacher's copy names the stale handouts")
                }
            }
        }
    }

    /// Keeps pages of a printed PDF as PNGs in `LESSONPLAN_DOCS_DIR` (the first `count`, or the listed ones).
    func keepPages(_ pdf: URL, as name: String, count: Int = 0, pages: [Int] = []) async throws {
        guard let folder = ProcessInfo.processInfo.environment["LESSONPLAN_DOCS_DIR"], !folder.isEmpty else { return }
        for page in pages.isEmpty ? Array(1...max(1, min(count, 8))) : pages where count > 0 || !pages.isEmpty {
            try await PrintedPage.pagePNG(of: pdf, page: page, to: URL(fileURLWithPath: folder).appending(path: "\(name)-p\(page).png"))
        }
    }
}

/// A slide's title against a section heading: slides leave out the time a heading states.
enum DocumentExportTitle {
    static func matches(_ title: String, _ heading: String) -> Bool {
        heading == title || heading.hasPrefix(title)
    }
}
