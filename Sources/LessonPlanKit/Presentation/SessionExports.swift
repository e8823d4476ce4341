import Foundation
import LessonPlanCore
import LessonPlanDocuments
import LessonPlanStore

// Where the engine meets the documents: a document is made from plain values (``ExportDocument``, ``LMSQuiz``)
// and knows nothing of the session, so choosing from a session's state what an export shows lives here, on the
// engine's side of the arrow.

extension SessionReview {
    /// Everything an export needs from a session, read once with the plan's framework: sections, pacing, check.
    /// - Parameter showModel: Name the model in the teacher's header.
    /// - Parameter asked: The failed quizzes and rubric to print anyway, marked on the teacher's copy.
    package static func document(_ state: SessionState, framework: Framework, showModel: Bool = false, asked: ExportAsked = .none) -> (
        export: ExportDocument, plan: PlanDocument
    )? {
        guard let current = state.current else { return nil }
        let plan = framework.document(of: current.text)
        let report = framework.check(plan, lessonMinutes: current.inputs.minutes, topic: current.inputs.topic, grade: current.inputs.grade)
        var check = ExportCheck(report, framework: framework)
        // Handouts made from another plan version: the teacher's copy says so, the students' sheets never do.
        let teacherNotes =
            (staleHandouts(state).map { stale in
                [
                    "The handouts were made from v\(stale.madeFrom), but this plan is v\(stale.current); type /materials to make new ones before printing them."
                ]
            } ?? []) + state.followingSentences(plan: current.number).filter(\.carried).map(\.sentence)
        check.quotations = QuoteChecker.check(current.text, against: state.sources).problems.map(\.sentence)
        let rubric = exportedRubric(state, number: current.number, asked: asked)
        let quizzes = exportedQuizzes(state, number: current.number, asked: asked)
        var document = ExportDocument(
            topic: current.inputs.topic, grade: current.inputs.grade.rawValue, minutes: current.inputs.minutes,
            standards: exportedStandards(current), constraints: current.inputs.constraints, model: state.header.model,
            created: state.header.created,
            versions: state.versions.map {
                ExportVersion(number: $0.number, command: $0.command, createdAt: $0.createdAt, text: $0.text)
            },
            currentVersion: current.number, pacing: framework.pacing(of: plan),
            framework: framework.name == Framework.defaultName ? "" : framework.title,
            check: check, showModel: showModel, rubric: rubric?.rubric, quizzes: quizzes.flatMap(state.forms(of:)))
        markFailed(&document, rubric: rubric, quizzes: quizzes)
        document.teacherNotes = teacherNotes
        for kind in TurnKind.keptBesidePlan { kind.keptKind?.teachersCopy(of: current.number, in: state, into: &document) }
        return (document, plan)
    }

    /// The lesson's standards as the teacher's copy lists them: what the teacher gave (codes already resolved to
    /// their text), then every code the plan cites, looked up, with its real text or the sentence that it is none.
    static func exportedStandards(_ version: PlanVersion) -> String {
        let catalog = StandardsCatalog.builtIn
        var shown = Set<String>()
        var lines: [String] = []
        for item in StandardsAlignment.items(version.inputs.standards) {
            // An item the tool resolved opens with its code and a colon: it is shown as looked up.
            if let first = catalog.cited(in: item).first, item.hasPrefix(first.typed + ":"), first.standard != nil {
                shown.insert(StandardsCatalog.key(first.typed))
                lines += catalog.verifiedLines(citedIn: first.typed, band: version.inputs.grade)
            } else {
                lines.append(item)
            }
        }
        let cited = catalog.cited(in: version.text).filter { shown.insert(StandardsCatalog.key($0.typed)).inserted }
        lines += catalog.verifiedLines(citedIn: cited.map(\.typed).joined(separator: " "), band: version.inputs.grade)
        // One paragraph: a line that ends its own sentence needs no semicolon after it.
        return lines.enumerated().map { index, line in
            index == lines.count - 1 || line.hasSuffix(".") ? line : line + ";"
        }.joined(separator: " ")
    }

    /// The bytes of an export in `format`, reading the plan under its framework's headings.
    /// - Throws: ``ExportError`` when there is no plan yet.
    package static func export(
        _ state: SessionState, format: ExportFormat, framework: Framework, showModel: Bool = false, asked: ExportAsked = .none
    ) throws -> Data {
        guard let (document, plan) = document(state, framework: framework, showModel: showModel, asked: asked) else {
            throw ExportError("There is no plan to export yet; generate one first.")
        }
        return try PlanExport.render(document, plan: plan, format: format)
    }

    /// What an export should tell the teacher before it is written: handouts made from an older plan, and a
    /// newer quiz or rubric left out because it was made from another plan version than the exported one, and a
    /// quiz or rubric left out because it did not pass its check (unless `asked` names it).
    package static func exportNotes(_ state: SessionState, materials: Bool, asked: ExportAsked = .none) -> [String] {
        var notes: [String] = []
        if materials, let stale = staleHandouts(state) {
            notes.append(
                "These handouts were made from v\(stale.madeFrom), but the plan is now v\(stale.current) (the students' sheets do not say so). Type /materials to make new ones."
            )
        }
        let exported = materials ? state.materials.last?.planVersion : state.currentVersion
        // What goes on the teacher's copy only is never left out of handouts.
        let teachers = materials ? [] : TurnKind.keptBesidePlan.compactMap { $0.keptKind?.leftOut(exporting: exported, in: state) }
        return notes + state.assessmentsLeftOut(exporting: exported) + failedLeftOut(state, number: exported, asked: asked)
            + teachers
    }

    /// Whether the latest handouts were made from an older plan version than the current one.
    /// - Returns: the plan version they were made from and the current one, or nil when they match.
    package static func staleHandouts(_ state: SessionState) -> (madeFrom: Int, current: Int)? {
        guard let materials = state.materials.last, let made = materials.planVersion, let current = state.currentVersion,
            made != current
        else { return nil }
        return (made, current)
    }

    /// The bytes of the latest student handouts in `format`, read with the framework of the plan they came from.
    /// - Throws: ``ExportError`` when `/materials` has not made any yet.
    package static func exportMaterials(
        _ state: SessionState, format: ExportFormat, framework: Framework? = nil, asked: ExportAsked = .none
    ) throws -> Data {
        let (document, plan) = try materialsDocument(state, framework: framework, asked: asked)
        return try PlanExport.render(document, plan: plan, format: format)
    }

    /// Everything an export of the latest student handouts needs, read with the framework of the plan they came from.
    /// - Throws: ``CommandError`` when `/materials` has not made any yet.
    package static func materialsDocument(_ state: SessionState, framework: Framework? = nil, asked: ExportAsked = .none) throws
        -> (export: ExportDocument, plan: PlanDocument)
    {
        guard let materials = state.materials.last else {
            throw ExportError("There are no student handouts yet; type /materials to make them from the plan.")
        }
        let rubric = exportedRubric(state, number: materials.planVersion, asked: asked)
        let document = ExportDocument(
            topic: materials.inputs.topic, grade: materials.inputs.grade.rawValue, minutes: materials.inputs.minutes,
            model: state.header.model, created: materials.createdAt,
            versions: [
                ExportVersion(
                    number: materials.number, command: "/materials", createdAt: materials.createdAt, text: materials.text)
            ],
            currentVersion: materials.number, kind: .materials, planVersion: materials.planVersion,
            latestPlanVersion: state.currentVersion, rubric: rubric?.rubric,
            quizzes: exportedQuizzes(state, number: materials.planVersion, asked: asked).flatMap(state.forms(of:)))
        return (document, PlanDocument(parsing: materials.text, headings: framework?.headings ?? []))
    }
}

extension DocumentExport {
    /// A session's current plan (or, with `materials`, its latest handouts) as a document in `format`, with the
    /// quiz and rubric made from that plan version (without the key for students, the key on its own page for
    /// the teacher; handouts and slides carry the students' rubric).
    ///
    /// - Parameters:
    ///   - prompts: Where the reference document for `format` comes from.
    /// - Throws: ``CommandError`` when there is no plan (or no handouts) yet, ``DocumentError`` when pandoc fails.
    package static func render(
        _ state: SessionState, format: DocumentFormat, framework: Framework, materials: Bool = false,
        showModel: Bool = false, asked: ExportAsked = .none, prompts: PromptLibrary, pandoc: Pandoc?
    ) async throws -> Data {
        let (document, plan): (ExportDocument, PlanDocument)
        if materials {
            (document, plan) = try SessionReview.materialsDocument(state, framework: framework, asked: asked)
        } else {
            guard let read = SessionReview.document(state, framework: framework, showModel: showModel, asked: asked) else {
                throw DocumentError.noPlan
            }
            (document, plan) = read
        }
        return try await render(
            document, plan: plan, format: format, pandoc: pandoc, reference: prompts.referenceDocument(for: format.rawValue))
    }
}

extension LMSExport {
    /// The quizzes exported, each one the current plan carries (``SessionState/quizzes(for:)``): the one `choice`
    /// names (a number, `starter`, `exit`); without a choice, the newest, or in a cartridge (`all`) one of each kind.
    /// - Throws: ``ExportError`` in one sentence when there is no plan, no such quiz, or it is not this plan's.
    package static func quizzes(_ state: SessionState, choice: QuizChoice?, all: Bool = false) throws(ExportError) -> [QuizVersion] {
        guard let current = state.currentVersion else {
            throw ExportError("There is no plan yet, so there is no quiz to export; generate a plan, then type /quiz to make one.")
        }
        let carried = state.quizzes(for: current)
        switch choice {
        case .number(let number)?:
            guard let quiz = state.quizzes.first(where: { $0.number == number }) else {
                throw ExportError(
                    state.quizzes.last.map { "There is no quiz \(number); the quizzes are numbered 1 to \($0.number) (see /history)." }
                        ?? "There is no quiz to export yet; type /quiz to make one from the plan.")
            }
            guard state.carries(quiz, plan: current) else { throw ExportError(notCarried(quiz, state: state, current: current)) }
            return [quiz]
        case .kind(let kind)?:
            guard let quiz = carried.first(where: { $0.quiz.kind == kind }) else {
                if let other = state.quizzes.last(where: { $0.quiz.kind == kind }) {
                    throw ExportError(notCarried(other, state: state, current: current))
                }
                throw ExportError("There is no \(kind.rawValue) quiz yet; type /quiz \(kind.rawValue) to make one from v\(current).")
            }
            return [quiz]
        case nil:
            guard let newest = carried.max(by: { $0.number < $1.number }) else {
                if let other = state.quizzes.last { throw ExportError(notCarried(other, state: state, current: current)) }
                throw ExportError("There is no quiz to export yet; type /quiz to make one from the plan.")
            }
            return all ? carried : [newest]
        }
    }

    /// Why a quiz is not the current plan's, in one sentence that says what to type.
    static func notCarried(_ quiz: QuizVersion, state: SessionState, current: Int) -> String {
        if case .doesNotFit(let made, let reasons) = state.standing(madeFrom: quiz.planVersion, quiz: quiz.quiz, plan: current) {
            return
                "Quiz \(quiz.number) was written for v\(made) and does not fit the current v\(current) (\(reasons.joined(separator: "; "))), so it is not exported; type /quiz again to rewrite it."
        }
        return
            "Quiz \(quiz.number) was made from v\(quiz.planVersion ?? 0), not from the current v\(current), so it is not exported; type /quiz \(quiz.quiz.kind.rawValue) to make one from v\(current)."
    }

    /// The file's bytes in `format` and the notes to show before writing it.
    /// - Throws: ``ExportError`` (no quiz, an item a platform cannot score, a text over the format's limits, a tool
    ///   missing) or ``PromptError`` when the plan's framework cannot be read.
    package static func render(
        _ state: SessionState, format: LMSFormat, choice: QuizChoice? = nil, prompts: PromptLibrary, tools: LMSTools
    ) async throws -> Result {
        let chosen = try quizzes(state, choice: choice, all: format == .imscc)
        // Each quiz as its forms (`/quiz forms`), each form an assessment of its own with an identifier of its own.
        let quizzes = try chosen.flatMap { made throws in
            try state.forms(of: made).map { form throws in
                (
                    form: form.form ?? "",
                    quiz: try LMSQuiz(
                        form, topic: made.inputs.topic,
                        identifier: identifier(state, quiz: made.number) + (form.form.map { "f" + $0.lowercased() } ?? ""))
                )
            }
        }
        let topic = chosen.first?.inputs.topic ?? state.currentInputs.topic
        // A cartridge holds every form; any other format is one file per form.
        var files: [(form: String, data: Data)] = []
        var notes: [String] = []
        for group in format == .imscc || quizzes.count == 1 ? [quizzes] : quizzes.map({ [$0] }) {
            let (data, said) = try await render(group.map(\.quiz), format: format, lesson: topic, tools: tools) {
                try cartridgePages(state, prompts: prompts)
            }
            files.append((group.count == 1 ? group[0].form : "", data))
            notes += said.filter { !notes.contains($0) }
        }
        // Asked for by name, a quiz that failed its check is still written, and the teacher is told so first.
        let failed = chosen.compactMap { made in
            made.problems.first.map { first in
                "Quiz \(made.number) did not pass its check (\(first)); it is written because you asked for it, so read it before students do, or type /quiz to make a new one."
            }
        }
        return Result(
            data: files.first?.data ?? Data(), notes: failed + notes, quizNumbers: chosen.map(\.number),
            planVersion: chosen.first?.planVersion ?? 0, forms: files.count > 1 ? files : [])
    }

    /// The cartridge's pages: the plan (the teacher's page, without the quiz) and, when made from the same plan
    /// version, the handouts; and a sentence when the latest handouts are left out.
    static func cartridgePages(_ state: SessionState, prompts: PromptLibrary) throws -> ([CommonCartridge.Page], [String]) {
        let framework = try prompts.framework(state.currentFramework)
        guard let found = SessionReview.document(state, framework: framework) else {
            throw ExportError("There is no plan to put in the cartridge yet; generate one first.")
        }
        var plan = found.export
        plan.quiz = nil
        var pages = [
            CommonCartridge.Page(
                identifier: "plan", title: "Lesson plan (v\(plan.currentVersion))", html: PlanExport.renderHTML(plan, plan: found.plan),
                teacherOnly: true)
        ]
        var notes: [String] = []
        if let materials = state.materials.last {
            if materials.planVersion == state.currentVersion {
                let made = try SessionReview.materialsDocument(state, framework: framework)
                var handouts = made.export
                handouts.quiz = nil
                pages.append(
                    CommonCartridge.Page(
                        identifier: "handouts", title: "Student handouts", html: PlanExport.renderHTML(handouts, plan: made.plan), teacherOnly: false)
                )
            } else {
                let current = state.currentVersion ?? 0
                notes.append(
                    "The handouts were made from v\(materials.planVersion ?? 0), not v\(current), so the cartridge leaves them out; type /materials to make them from v\(current)."
                )
            }
        }
        return (pages, notes)
    }

    /// `lp` and the session id's first letters and digits, then the quiz number: the same quiz exported again keeps
    /// its identifier (a platform that keys imports by it updates rather than duplicates), another quiz gets a new one.
    static func identifier(_ state: SessionState, quiz number: Int) -> String {
        let letters = state.header.id.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        return "lp" + String(String.UnicodeScalarView(letters.prefix(12))) + "q\(number)"
    }
}
