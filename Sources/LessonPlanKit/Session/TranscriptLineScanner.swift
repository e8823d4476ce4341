import Foundation

/// Reads a transcript line as this tool writes it straight from its bytes, because `JSONDecoder`
/// with snake-case keys took about 0.6 s of CPU for the 20,000 lines of a 10,000-turn session,
/// twice what `resume` may take in all.
///
/// It is deliberately narrow: a flat object without whitespace whose keys are all fields of its
/// record type (each at most once, in any order), holding strings, integers, `true`, `false` and
/// `null`, with `inputs`, `usage`, the plan check (`check`) and the reading level (`reading_level`)
/// as objects of their own known keys. A plan check or reading level written any other way (a
/// problem kind from a newer build, say, which the full decoder drops) is delimited here and decoded
/// on its own by the full decoder's `JSONDecoder`, so it reads exactly as there; that costs about
/// 20 µs a value, which on every `turn_ended` line would triple `resume`. Whatever it does not fully
/// understand — another key (a field added by a newer build), whitespace, a fraction, a duplicate
/// key, an escaped key, a bad date, invalid UTF-8 — makes it return nil, and the caller then asks
/// the full decoder, which also produces every error. So whenever this returns a record,
/// ``TranscriptCoder/decodeWithoutFastPath(_:)`` returns the same one.
///
/// The keys are the schema's (`TranscriptSchema.swift`), shared with the writer. A field added to a
/// record type must be added there and read here too, or every line of that type quietly takes the
/// slow path; `TranscriptFastPathTests` checks the fields against the record types to catch that.
enum TranscriptLineScanner {
    /// The record on one line (without its newline), or nil to leave it to the full decoder.
    ///
    /// With `prompts` `.skipped`, a `turn_started` line's `instructions` and `input` are checked
    /// exactly as when they are kept (so the same lines are accepted) but come back empty.
    static func record(
        in line: UnsafeRawBufferPointer, prompts: TranscriptReader.Prompts = .kept
    ) -> TranscriptRecord? {
        guard let start = line.baseAddress, line.count >= 2 else { return nil }
        var scanner = Scanner(
            base: start.assumingMemoryBound(to: UInt8.self), count: line.count, keepsPrompts: prompts == .kept)
        guard let fields = scanner.topLevelObject() else { return nil }
        return fields.record()
    }

    /// One value as read; which case a field may hold is checked when the record is built.
    enum Value {
        case absent
        case null
        case string(String)
        case integer(Int)
        case boolean(Bool)
        case inputs(LessonInputs)
        case usage(Usage)
        case check(PlanCheckReport)
        case readingLevel(ReadingMeasure)
    }

    /// The values of one line's keys, by ``TranscriptField``.
    struct Fields {
        var values = [Value](repeating: .absent, count: TranscriptField.count)
        var present: UInt64 = 0

        subscript(_ field: TranscriptField) -> Value { values[field.rawValue] }

        /// A required string, or nil when absent, `null` or not a string.
        func string(_ field: TranscriptField) -> String? {
            if case .string(let text) = self[field] { return text }
            return nil
        }

        /// An optional string: `.some(nil)` for absent or `null`, nil for the wrong kind.
        func optionalString(_ field: TranscriptField) -> String?? {
            switch self[field] {
            case .absent, .null: return .some(nil)
            case .string(let text): return .some(text)
            default: return nil
            }
        }

        func integer(_ field: TranscriptField) -> Int? {
            if case .integer(let number) = self[field] { return number }
            return nil
        }

        func optionalInteger(_ field: TranscriptField) -> Int?? {
            switch self[field] {
            case .absent, .null: return .some(nil)
            case .integer(let number): return .some(number)
            default: return nil
            }
        }

        /// A date as the full decoder reads one, through the same parser.
        func date(_ field: TranscriptField) -> Date? {
            string(field).flatMap(TranscriptCoder.parse)
        }

        func inputs(_ field: TranscriptField) -> LessonInputs? {
            if case .inputs(let inputs) = self[field] { return inputs }
            return nil
        }

        func optionalUsage(_ field: TranscriptField) -> Usage?? {
            optional(field) { if case .usage(let usage) = $0 { usage } else { nil } }
        }

        func optionalBoolean(_ field: TranscriptField) -> Bool?? {
            optional(field) { if case .boolean(let flag) = $0 { flag } else { nil } }
        }

        func optionalCheck(_ field: TranscriptField) -> PlanCheckReport?? {
            optional(field) { if case .check(let report) = $0 { report } else { nil } }
        }

        func optionalReadingLevel(_ field: TranscriptField) -> ReadingMeasure?? {
            optional(field) { if case .readingLevel(let measure) = $0 { measure } else { nil } }
        }

        /// A turn's kind: a string naming a ``TurnKind``; any other string is for the full decoder to refuse.
        func optionalTurnKind(_ field: TranscriptField) -> TurnKind?? {
            optional(field) { if case .string(let text) = $0 { TurnKind(rawValue: text) } else { nil } }
        }

        /// A quiz's kind: a string naming a ``Quiz/Kind``; any other string is for the full decoder to refuse.
        func optionalQuizKind(_ field: TranscriptField) -> Quiz.Kind?? {
            optional(field) { if case .string(let text) = $0 { Quiz.Kind(rawValue: text) } else { nil } }
        }

        /// An optional field: `.some(nil)` for absent or `null`, `.some` of what `take` makes of the
        /// value, or nil when it makes nothing (the wrong kind).
        private func optional<T>(_ field: TranscriptField, _ take: (Value) -> T?) -> T?? {
            switch self[field] {
            case .absent, .null: return .some(nil)
            case let value: return take(value).map { .some($0) }
            }
        }

        /// The record these values make, or nil when anything is missing, extra or of the wrong kind.
        func record() -> TranscriptRecord? {
            guard let type = string(.type).flatMap(TranscriptRecordType.init(rawValue:)),
                present & ~type.fieldMask == 0
            else { return nil }
            // The full decoder refuses a newer version and reads anything else as this one.
            guard let version = optionalInteger(.v), (version ?? 0) <= TranscriptRecord.formatVersion else {
                return nil
            }
            switch type {
            case .session:
                guard let id = string(.id), let created = date(.created), let inputs = inputs(.inputs),
                    let model = string(.model), let baseURL = string(.baseURL), let name = optionalString(.name),
                    let toolVersion = string(.toolVersion), let framework = optionalString(.framework)
                else { return nil }
                return .header(
                    SessionHeader(
                        id: id, created: created, inputs: inputs, model: model, baseUrl: baseURL, name: name,
                        toolVersion: toolVersion, framework: framework))
            case .turnStarted:
                guard let turn = integer(.turn), let at = date(.at), let command = string(.command),
                    let template = string(.template), let inputs = inputs(.inputs),
                    let baseVersion = optionalInteger(.baseVersion), let model = string(.model),
                    let instructions = string(.instructions), let input = string(.input),
                    let maxOutputTokens = integer(.maxOutputTokens), let framework = optionalString(.framework),
                    let follows = optionalInteger(.follows), let kind = optionalTurnKind(.kind),
                    let retryOf = optionalInteger(.retryOf), let continues = optionalInteger(.continues),
                    let quizKind = optionalQuizKind(.quizKind), let quizItems = optionalInteger(.quizItems),
                    let rubricLevels = optionalInteger(.rubricLevels), let lesson = optionalInteger(.lesson)
                else { return nil }
                return .turnStarted(
                    TurnStarted(
                        turn: turn, at: at, command: command, template: template, inputs: inputs,
                        baseVersion: baseVersion, model: model, instructions: instructions, input: input,
                        maxOutputTokens: maxOutputTokens, framework: framework, follows: follows, kind: kind,
                        retryOf: retryOf, continues: continues, quizKind: quizKind, quizItems: quizItems,
                        rubricLevels: rubricLevels, lesson: lesson))
            case .turnEnded:
                guard let turn = integer(.turn), let at = date(.at),
                    let status = string(.status).flatMap(TurnStatus.init(rawValue:)), let output = string(.output),
                    let usage = optionalUsage(.usage), let responseID = optionalString(.responseID),
                    let error = optionalString(.error), let version = optionalInteger(.version),
                    let durationMs = integer(.durationMs), let check = optionalCheck(.check),
                    let readingLevel = optionalReadingLevel(.readingLevel), let kept = optionalBoolean(.kept),
                    let materials = optionalInteger(.materials), let streamed = optionalBoolean(.streamed),
                    let quiz = optionalInteger(.quiz), let rubric = optionalInteger(.rubric),
                    let review = optionalInteger(.review)
                else { return nil }
                return .turnEnded(
                    TurnEnded(
                        turn: turn, at: at, status: status, output: output, usage: usage, responseId: responseID,
                        error: error, version: version, durationMs: durationMs, check: check,
                        readingLevel: readingLevel, kept: kept, materials: materials, streamed: streamed, quiz: quiz,
                        rubric: rubric, review: review))
            case .undo:
                guard let at = date(.at), let from = integer(.from), let to = integer(.to),
                    let lesson = optionalInteger(.lesson)
                else { return nil }
                return .undo(UndoRecord(at: at, from: from, to: to, lesson: lesson))
            case .name:
                guard let at = date(.at), let name = string(.name) else { return nil }
                return .named(NameRecord(at: at, name: name))
            case .handEdit:
                guard let at = date(.at), let command = string(.command), let baseVersion = integer(.baseVersion),
                    let version = integer(.version), let text = string(.text), let check = optionalCheck(.check),
                    let lesson = optionalInteger(.lesson)
                else { return nil }
                return .handEdit(
                    HandEditRecord(
                        at: at, command: command, baseVersion: baseVersion, version: version, text: text, check: check,
                        lesson: lesson))
            // Sources and a unit's lines are rare and read by the full decoder.
            case .source, .sourceRemoved, .unit, .lesson:
                return nil
            }
        }
    }

    /// A cursor over one line's bytes.
    struct Scanner {
        let base: UnsafePointer<UInt8>
        let count: Int
        /// Whether `instructions` and `input` are built, or only checked.
        let keepsPrompts: Bool
        var index = 0
        /// Unescaped bytes of the string being read, kept between strings for its capacity.
        var scratch: [UInt8] = []

        init(base: UnsafePointer<UInt8>, count: Int, keepsPrompts: Bool) {
            self.base = base
            self.count = count
            self.keepsPrompts = keepsPrompts
        }

        /// The whole line as one object, which must end exactly at the line's end.
        mutating func topLevelObject() -> Fields? {
            var fields = Fields()
            let parsed = object { scanner, key in
                guard let field = TranscriptField.named(scanner.base, key), fields.present & field.bit == 0,
                    let value = scanner.value(for: field)
                else { return false }
                fields.present |= field.bit
                fields.values[field.rawValue] = value
                return true
            }
            guard parsed, index == count else { return nil }
            return fields
        }

        /// Walks `{"key":value,…}` from the current `{`, handing each plain key to `member`, which
        /// reads the value and returns false to give up.
        mutating func object(_ member: (inout Scanner, Range<Int>) -> Bool) -> Bool {
            guard index < count, base[index] == Byte.openBrace else { return false }
            index += 1
            // An empty object is valid JSON but never a whole record; let the full decoder judge it.
            while true {
                guard index < count, base[index] == Byte.quote, let keyEnd = plainStringEnd(from: index + 1) else {
                    return false
                }
                let key = (index + 1)..<keyEnd
                index = keyEnd + 1
                guard index < count, base[index] == Byte.colon else { return false }
                index += 1
                guard index < count, member(&self, key), index < count else { return false }
                if base[index] == Byte.comma {
                    index += 1
                } else if base[index] == Byte.closeBrace {
                    index += 1
                    return true
                } else {
                    return false
                }
            }
        }

        /// The value of a top-level field, read as the kind the field holds, or `null`.
        mutating func value(for field: TranscriptField) -> Value? {
            if literal(Byte.null) { return .null }
            switch field {
            case .v, .turn, .baseVersion, .maxOutputTokens, .version, .durationMs, .from, .to, .follows, .materials,
                .retryOf, .continues, .quizItems, .rubricLevels, .quiz, .rubric, .review, .lesson:
                return integer().map(Value.integer)
            case .kept, .streamed:
                return boolean().map(Value.boolean)
            case .inputs:
                return lessonInputs().map(Value.inputs)
            case .usage:
                return usage().map(Value.usage)
            case .check:
                let start = index
                if let report = planCheck() { return .check(report) }
                index = start
                return decodedObject(PlanCheckReport.self).map(Value.check)
            case .readingLevel:
                let start = index
                if let measure = readingMeasure() { return .readingLevel(measure) }
                index = start
                return decodedObject(ReadingMeasure.self).map(Value.readingLevel)
            case .instructions where !keepsPrompts, .input where !keepsPrompts:
                return checkedString() ? .string("") : nil
            default:
                return string().map(Value.string)
            }
        }

        /// `{"grade":…,"topic":…,"minutes":…,"standards":…,"constraints":…}` in any order, all required,
        /// and `"given_grade":…` when one grade was given.
        mutating func lessonInputs() -> LessonInputs? {
            var givenGrade: Int?
            var grade: GradeBand?
            var topic: String?
            var minutes: Int?
            var standards: String?
            var constraints: String?
            let parsed = object { scanner, key in
                if scanner.matches(key, "grade"), grade == nil {
                    grade = scanner.string().flatMap(GradeBand.init(rawValue:))
                    return grade != nil
                } else if scanner.matches(key, "topic"), topic == nil {
                    topic = scanner.string()
                    return topic != nil
                } else if scanner.matches(key, "minutes"), minutes == nil {
                    minutes = scanner.integer()
                    return minutes != nil
                } else if scanner.matches(key, "standards"), standards == nil {
                    standards = scanner.string()
                    return standards != nil
                } else if scanner.matches(key, "constraints"), constraints == nil {
                    constraints = scanner.string()
                    return constraints != nil
                } else if scanner.matches(key, "given_grade"), givenGrade == nil {
                    givenGrade = scanner.integer()
                    return givenGrade != nil
                }
                return false
            }
            guard parsed, let grade, let topic, let minutes, let standards, let constraints else { return nil }
            return LessonInputs(
                recorded: grade, topic: topic, minutes: minutes, standards: standards, constraints: constraints,
                givenGrade: givenGrade)
        }

        /// `{"input_tokens":…,"output_tokens":…,"reasoning_tokens":…}`, the last optional or `null`.
        mutating func usage() -> Usage? {
            var input: Int?
            var output: Int?
            var reasoning: Int??
            let parsed = object { scanner, key in
                if scanner.matches(key, "input_tokens"), input == nil {
                    input = scanner.integer()
                    return input != nil
                } else if scanner.matches(key, "output_tokens"), output == nil {
                    output = scanner.integer()
                    return output != nil
                } else if scanner.matches(key, "reasoning_tokens"), reasoning == nil {
                    if scanner.literal(Byte.null) {
                        reasoning = .some(nil)
                        return true
                    }
                    guard let number = scanner.integer() else { return false }
                    reasoning = .some(number)
                    return true
                }
                return false
            }
            guard parsed, let input, let output else { return nil }
            return Usage(inputTokens: input, outputTokens: output, reasoningTokens: reasoning ?? nil)
        }

        /// `{"lesson_minutes":…,"paced_minutes":…,"passed":…,"problems":[…],"notes":[]}` in any order, as
        /// ``PlanCheckReport`` writes it, `paced_minutes` also absent or `null`, `passed` and `notes` also absent
        /// (the full decoder reads neither more strictly); nil for anything else, such as another key
        /// or a problem ``planProblem()`` does not take.
        mutating func planCheck() -> PlanCheckReport? {
            var lessonMinutes: Int?
            var pacedMinutes: Int??
            var passed: Bool?
            var problems: [PlanProblem]?
            var notes: [ContentNote]?
            let parsed = object { scanner, key in
                if scanner.matches(key, "lesson_minutes"), lessonMinutes == nil {
                    lessonMinutes = scanner.integer()
                    return lessonMinutes != nil
                } else if scanner.matches(key, "paced_minutes"), pacedMinutes == nil {
                    if scanner.literal(Byte.null) {
                        pacedMinutes = .some(nil)
                        return true
                    }
                    guard let number = scanner.integer() else { return false }
                    pacedMinutes = .some(number)
                    return true
                } else if scanner.matches(key, "passed"), passed == nil {
                    // Written for other readers; the full decoder never reads it back.
                    passed = scanner.boolean()
                    return passed != nil
                } else if scanner.matches(key, "problems"), problems == nil {
                    problems = scanner.planProblems()
                    return problems != nil
                } else if scanner.matches(key, "notes"), notes == nil {
                    // Only an empty list is read here; notes themselves go to the full decoder.
                    guard scanner.emptyArray() else { return false }
                    notes = []
                    return true
                }
                return false
            }
            guard parsed, let lessonMinutes, let problems else { return nil }
            return PlanCheckReport(
                problems: problems, pacedMinutes: pacedMinutes ?? nil, lessonMinutes: lessonMinutes, notes: notes)
        }

        /// `[]`, consumed; false (and nothing consumed) for anything else.
        mutating func emptyArray() -> Bool {
            guard index + 1 < count, base[index] == Byte.openBracket, base[index + 1] == Byte.closeBracket else {
                return false
            }
            index += 2
            return true
        }

        /// `[]` or `[problem,…]`, every problem one that ``planProblem()`` takes.
        mutating func planProblems() -> [PlanProblem]? {
            guard index < count, base[index] == Byte.openBracket else { return nil }
            index += 1
            var problems: [PlanProblem] = []
            if index < count, base[index] == Byte.closeBracket {
                index += 1
                return problems
            }
            while true {
                guard let problem = planProblem(), index < count else { return nil }
                problems.append(problem)
                if base[index] == Byte.comma {
                    index += 1
                } else if base[index] == Byte.closeBracket {
                    index += 1
                    return problems
                } else {
                    return nil
                }
            }
        }

        /// A problem with a `kind` this build knows and exactly the details ``PlanProblem`` writes for
        /// it, in any order. The full decoder drops a problem of an unknown kind or without its
        /// details and ignores details the kind lacks; those come back nil here, for it to read.
        mutating func planProblem() -> PlanProblem? {
            var kind: String?
            var heading: String?
            var found: Int?
            var expected: Int?
            var minimum: Int?
            let parsed = object { scanner, key in
                if scanner.matches(key, "kind"), kind == nil {
                    kind = scanner.string()
                    return kind != nil
                } else if scanner.matches(key, "heading"), heading == nil {
                    heading = scanner.string()
                    return heading != nil
                } else if scanner.matches(key, "found"), found == nil {
                    found = scanner.integer()
                    return found != nil
                } else if scanner.matches(key, "expected"), expected == nil {
                    expected = scanner.integer()
                    return expected != nil
                } else if scanner.matches(key, "minimum"), minimum == nil {
                    minimum = scanner.integer()
                    return minimum != nil
                }
                return false
            }
            guard parsed, let kind else { return nil }
            // The problems these details can make, told apart by the `kind` each writes, so the
            // kinds are spelled once, in PlanProblem.
            let candidates: [PlanProblem]
            switch (heading, found, expected, minimum) {
            case (let heading?, nil, nil, nil):
                candidates = [.missingHeading(heading), .duplicateHeading(heading), .outOfOrder(heading)]
            case (nil, let found?, let expected?, nil):
                candidates = [
                    .pacingTotal(found: found, expected: expected), .warmUpMinutes(found: found, expected: expected),
                    .exitTicketPrompts(found: found, expected: expected),
                ]
            case (nil, let found?, nil, let minimum?):
                candidates = [.tooFewCFUQuestions(found: found, minimum: minimum)]
            case (nil, nil, nil, nil):
                candidates = [.noPacing, .codeFence]
            default:
                return nil
            }
            return candidates.first { $0.kind == kind }
        }

        /// `{"band":…,"expected_high":…,"expected_low":…,"grade":…,"in_range":…,"words":…}` in any
        /// order, as ``ReadingMeasure`` writes it, `grade` also absent or `null`; nil for anything else.
        mutating func readingMeasure() -> ReadingMeasure? {
            var band: GradeBand?
            var expectedHigh: Double?
            var expectedLow: Double?
            var grade: Double??
            var inRange: Bool?
            var words: Int?
            let parsed = object { scanner, key in
                if scanner.matches(key, "band"), band == nil {
                    band = scanner.string().flatMap(GradeBand.init(rawValue:))
                    return band != nil
                } else if scanner.matches(key, "expected_high"), expectedHigh == nil {
                    expectedHigh = scanner.double()
                    return expectedHigh != nil
                } else if scanner.matches(key, "expected_low"), expectedLow == nil {
                    expectedLow = scanner.double()
                    return expectedLow != nil
                } else if scanner.matches(key, "grade"), grade == nil {
                    if scanner.literal(Byte.null) {
                        grade = .some(nil)
                        return true
                    }
                    guard let number = scanner.double() else { return false }
                    grade = .some(number)
                    return true
                } else if scanner.matches(key, "in_range"), inRange == nil {
                    inRange = scanner.boolean()
                    return inRange != nil
                } else if scanner.matches(key, "words"), words == nil {
                    words = scanner.integer()
                    return words != nil
                }
                return false
            }
            guard parsed, let band, let expectedHigh, let expectedLow, let inRange, let words else { return nil }
            return ReadingMeasure(
                grade: grade ?? nil, words: words, band: band, expectedLow: expectedLow, expectedHigh: expectedHigh,
                inRange: inRange)
        }

        /// Powers of ten a `Double` holds exactly, for ``double()``.
        private static let exactPowersOfTen: [Double] = [
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        ]

        /// A number written `-?(0|[1-9][0-9]*)(\.[0-9]+)?` with at most 15 digits in all, as the reading
        /// level's grades are (`7.4`, `10`); nil for an exponent, more digits, or anything else.
        ///
        /// The value is exact without a float parser: the digits as an integer below 10^15 and the
        /// power of ten are both exact doubles, so the one division is the correctly rounded value
        /// of the decimal, which is what `JSONDecoder`'s `strtod` gives too.
        mutating func double() -> Double? {
            var position = index
            let negative = position < count && base[position] == Byte.minus
            if negative { position += 1 }
            let integerStart = position
            var mantissa: Int64 = 0
            while position < count, base[position] &- Byte.zero < 10 {
                mantissa = mantissa &* 10 &+ Int64(base[position] &- Byte.zero)
                position += 1
                guard position - integerStart <= 15 else { return nil }
            }
            let integerDigits = position - integerStart
            guard integerDigits > 0, !(integerDigits > 1 && base[integerStart] == Byte.zero) else { return nil }
            var fractionDigits = 0
            if position < count, base[position] == Byte.dot {
                position += 1
                while position < count, base[position] &- Byte.zero < 10 {
                    mantissa = mantissa &* 10 &+ Int64(base[position] &- Byte.zero)
                    position += 1
                    fractionDigits += 1
                    guard integerDigits + fractionDigits <= 15 else { return nil }
                }
                guard fractionDigits > 0 else { return nil }
            }
            // What follows a value is `,` or `}`; anything else (`e`) is for the decoder.
            guard position < count, base[position] == Byte.comma || base[position] == Byte.closeBrace else {
                return nil
            }
            let magnitude = Double(mantissa) / Self.exactPowersOfTen[fractionDigits]
            index = position
            return negative ? -magnitude : magnitude
        }

        /// `true` or `false`.
        mutating func boolean() -> Bool? {
            if literal("true") { return true }
            return literal("false") ? false : nil
        }

        /// The object from the current `{`, decoded on its own by the full decoder's `JSONDecoder`, or
        /// nil when it cannot be (the line then goes to the full decoder, which gives the error).
        ///
        /// Only the object's extent is found here. The decoder then checks every byte of it, so a
        /// slice it accepts is one whole JSON value, which is exactly what a parser of the whole line
        /// would take from the same place; it decodes that value with the same strategies, so it
        /// reads it the same way.
        mutating func decodedObject<T: Decodable>(_ type: T.Type) -> T? {
            guard let end = objectEnd() else { return nil }
            let slice = Data(UnsafeBufferPointer(start: base + index, count: end - index))
            guard let value = try? TranscriptCoder.decoder.decode(type, from: slice) else { return nil }
            index = end
            return value
        }

        /// The deepest nesting ``objectEnd()`` follows; the plan check needs 3. A limit of its own
        /// keeps a freak line away from `JSONDecoder`'s depth limit, which it counts from the line's
        /// top level and so would reach one level sooner than on the slice alone.
        static let maxNesting = 16

        /// The index just past the object that starts at the current `{`: brackets are counted
        /// outside strings, and strings skipped with their escapes. Nil for whitespace, control or
        /// non-ASCII bytes outside strings (the writer never puts them there), nesting deeper than
        /// ``maxNesting``, or a line that ends first. It need not check more: the decoder does.
        func objectEnd() -> Int? {
            guard index < count, base[index] == Byte.openBrace else { return nil }
            var depth = 0
            var position = index
            while position < count {
                switch base[position] {
                case Byte.quote:
                    guard let end = JSONStringScanner.closingQuote(base, count: count, from: position + 1) else {
                        return nil
                    }
                    position = end
                case Byte.openBrace, Byte.openBracket:
                    depth += 1
                    guard depth <= Self.maxNesting else { return nil }
                case Byte.closeBrace, Byte.closeBracket:
                    depth -= 1
                    if depth == 0 { return position + 1 }
                case let byte where byte <= 0x20 || byte >= 0x7F:
                    return nil
                default:
                    break
                }
                position += 1
            }
            return nil
        }

        /// An integer written plainly: `0`, `-12`, `8192`; no `-0`, fraction, exponent or leading zero.
        mutating func integer() -> Int? {
            var position = index
            let negative = position < count && base[position] == Byte.minus
            if negative { position += 1 }
            let digitsStart = position
            var magnitude: UInt64 = 0
            while position < count, base[position] &- Byte.zero < 10 {
                magnitude = magnitude &* 10 &+ UInt64(base[position] &- Byte.zero)
                position += 1
                // 19 digits always fit a UInt64; more are left to the full decoder.
                guard position - digitsStart <= 19 else { return nil }
            }
            let digits = position - digitsStart
            guard digits > 0, !(base[digitsStart] == Byte.zero && (digits > 1 || negative)) else { return nil }
            // What follows a value is `,` or `}`; anything else (`.`, `e`) is for the full decoder.
            guard position < count, base[position] == Byte.comma || base[position] == Byte.closeBrace else {
                return nil
            }
            let value: Int
            if negative {
                guard magnitude <= UInt64(Int.max) + 1 else { return nil }
                value = magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
            } else {
                guard magnitude <= UInt64(Int.max) else { return nil }
                value = Int(magnitude)
            }
            index = position
            return value
        }

        /// Consumes `literal` (such as `null`) if it is next.
        mutating func literal(_ literal: StaticString) -> Bool {
            let length = literal.utf8CodeUnitCount
            guard index + length <= count, memcmp(base + index, literal.utf8Start, length) == 0 else { return false }
            index += length
            return true
        }

        func matches(_ range: Range<Int>, _ expected: StaticString) -> Bool {
            range.count == expected.utf8CodeUnitCount
                && memcmp(base + range.lowerBound, expected.utf8Start, range.count) == 0
        }

        /// Index of the closing quote of a key with no escapes or control characters.
        func plainStringEnd(from start: Int) -> Int? {
            JSONStringScanner.plainStringEnd(base, count: count, from: start)
        }

        /// A JSON string from its opening quote; nil for anything a strict parser rejects (a raw
        /// control character, a lone surrogate, an unknown escape, invalid UTF-8).
        mutating func string() -> String? {
            guard index < count, base[index] == Byte.quote else { return nil }
            let start = index + 1
            // Most values have no escapes: take the bytes where they lie.
            if let end = plainStringEnd(from: start) {
                index = end + 1
                return String(validating: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
            }
            scratch.removeAll(keepingCapacity: true)
            guard let end = JSONStringScanner.decode(base, count: count, from: start, escapes: .strict, into: &scratch)
            else { return nil }
            index = end
            return String(validating: scratch, as: UTF8.self)
        }

        /// Whether a JSON string from its opening quote is one ``string()`` would read, checked
        /// in place without building it: most of a long transcript's bytes are prompt text that
        /// `resume` and `replay` never show.
        mutating func checkedString() -> Bool {
            guard index < count, base[index] == Byte.quote else { return false }
            var check = JSONStringUTF8Check()
            guard let end = JSONStringScanner.decode(base, count: count, from: index + 1, escapes: .strict, into: &check)
            else { return false }
            index = end
            return true
        }
    }

    enum Byte {
        static let openBrace = UInt8(ascii: "{")
        static let closeBrace = UInt8(ascii: "}")
        static let openBracket = UInt8(ascii: "[")
        static let closeBracket = UInt8(ascii: "]")
        static let quote = UInt8(ascii: "\"")
        static let backslash = UInt8(ascii: "\\")
        static let colon = UInt8(ascii: ":")
        static let comma = UInt8(ascii: ",")
        static let minus = UInt8(ascii: "-")
        static let dot = UInt8(ascii: ".")
        static let zero = UInt8(ascii: "0")
        static let null: StaticString = "null"
    }
}

/// What the scanner needs of the schema's keys: one bit each, and finding the field a key names.
extension TranscriptField {
    /// One bit per field in a `UInt64`, so there may be at most 64 fields.
    var bit: UInt64 { 1 << UInt64(rawValue) }

    /// How many fields there are; `rawValue`s run from 0 to one less.
    static let count = allCases.count

    /// The field a key names; keys are compared as bytes, so an escaped key never matches.
    static func named(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> TranscriptField? {
        guard range.count < byKeyLength.count else { return nil }
        for field in byKeyLength[range.count]
        where memcmp(base + range.lowerBound, field.key.utf8Start, range.count) == 0 {
            return field
        }
        return nil
    }

    /// Fields by the length of their key, so each key is compared with a few candidates rather
    /// than all of them (once per key of 20,000 lines, that showed in the profile).
    private static let byKeyLength: [[TranscriptField]] = {
        var table = [[TranscriptField]](repeating: [], count: (allCases.map(\.key.utf8CodeUnitCount).max() ?? 0) + 1)
        for field in allCases { table[field.key.utf8CodeUnitCount].append(field) }
        return table
    }()
}

extension TranscriptRecordType {
    /// The keys a line of this type may have, as a bit mask of ``TranscriptField/bit``.
    var fieldMask: UInt64 { Self.masks[self] ?? 0 }

    private static let masks: [TranscriptRecordType: UInt64] = Dictionary(
        uniqueKeysWithValues: allCases.map { type in (type, type.fields.reduce(0) { $0 | $1.bit }) })
}
