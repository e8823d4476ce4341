import Foundation
import LessonPlanCore
import LessonPlanModel

// The byte-level half of the fast path: TranscriptLineScanner.swift says what it reads and why.
extension TranscriptLineScanner {
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
            switch field.holds {
            case .integer: return integer().map(Value.integer)
            case .boolean: return boolean().map(Value.boolean)
            case .other: break
            }
            switch field {
            case .inputs:
                return lessonInputs().map(Value.inputs)
            case .usage:
                return usage().map(Value.usage)
            case .made:
                return made().map(Value.made)
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
        /// `{"kind":…,"number":…}` in any order, both required.
        mutating func made() -> Made? {
            var kind: TurnKind?
            var number: Int?
            let parsed = object { scanner, key in
                if scanner.matches(key, "kind"), kind == nil {
                    kind = scanner.string().flatMap(TurnKind.init(rawValue:))
                    return kind != nil
                } else if scanner.matches(key, "number"), number == nil {
                    number = scanner.integer()
                    return number != nil
                }
                return false
            }
            guard parsed, let kind, let number else { return nil }
            return Made(kind, number)
        }

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
}
