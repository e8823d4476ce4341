import LessonPlanCore
import Testing

@Suite struct GradeBandTests {
    @Test(arguments: [
        ("3-5", GradeBand.threeTo5), ("3–5", .threeTo5), ("3 to 5", .threeTo5), ("grades 3-5", .threeTo5),
        ("Grade 3 – 5", .threeTo5), ("k-2", .kTo2), ("K–2", .kTo2), ("K", .kTo2), ("4", .threeTo5),
        ("6-8", .sixTo8), ("6—8", .sixTo8), ("9-12", .nineTo12), ("12", .nineTo12), ("0", .kTo2),
        ("kindergarten", .kTo2), ("7th", .sixTo8), ("  9–12 ", .nineTo12),
        // As a person writes a grade: issue #21's forms.
        ("7th grade", .sixTo8), ("grade 7", .sixTo8), ("Grade 7", .sixTo8), ("seventh grade", .sixTo8),
        ("Kindergarten", .kTo2), ("3rd-5th grade", .threeTo5), ("first grade", .kTo2), ("12th graders", .nineTo12),
        ("Seventh", .sixTo8),
    ])
    func acceptsTeacherForms(text: String, band: GradeBand) throws {
        #expect(try GradeBand.parse(text) == band)
    }

    @Test func aSingleGradeIsKeptBesideItsBand() throws {
        #expect(try GradeBand.parseGiven("4") == (.threeTo5, 4))
        #expect(try GradeBand.parseGiven("grade 7th") == (.sixTo8, 7))
        #expect(try GradeBand.parseGiven("K") == (.kTo2, 0))
        #expect(try GradeBand.parseGiven("7th grade") == (.sixTo8, 7))
        #expect(try GradeBand.parseGiven("seventh grade") == (.sixTo8, 7))
        #expect(try GradeBand.parseGiven("3–5") == (.threeTo5, nil))
        let given = try LessonInputs(grade: .threeTo5, topic: "Tides", minutes: 30, givenGrade: 4)
        #expect(given.gradeText == "grade 4 (band 3–5)")
        #expect(try LessonInputs(grade: .kTo2, topic: "Tides", minutes: 30, givenGrade: 0).gradeText == "grade K (band K–2)")
        #expect(try LessonInputs(grade: .threeTo5, topic: "Tides", minutes: 30).gradeText == "grades 3–5")
        // A grade outside the band is not kept; a regrade to another band keeps only a grade it names.
        #expect(try LessonInputs(grade: .sixTo8, topic: "Tides", minutes: 30, givenGrade: 4).givenGrade == nil)
        var regraded = given
        regraded.setGrade(.sixTo8, given: nil)
        #expect(regraded.gradeText == "grades 6–8")
        regraded.setGrade(.sixTo8, given: 7)
        #expect(regraded.gradeText == "grade 7 (band 6–8)")
    }

    @Test(arguments: ["", "3-6", "13", "k-5", "5-3", "abc", "3--5", "-1", "3-5-8", "٣", "grades", "grade", "13th grade", "thirteenth grade"])
    func rejectsOtherForms(text: String) {
        #expect(throws: InputError.gradeBand(text)) { try GradeBand.parse(text) }
    }

    @Test func errorListsAcceptedForms() {
        let message = InputError.gradeBand("3-6").errorDescription ?? ""
        #expect(message.contains("K–2, 3–5, 6–8 or 9–12"))
    }
}

@Suite struct LessonInputsTests {
    @Test(arguments: ["10", "45", "180", " 60 "])
    func acceptsMinutesInRange(text: String) throws {
        #expect(try LessonInputs.parseMinutes(text) == Int(text.trimmingCharacters(in: .whitespaces)))
    }

    @Test(arguments: ["9", "181", "0", "-5", "45.5", "forty", "", "４５", "1e2"])
    func rejectsMinutesOutOfRangeOrNotANumber(text: String) {
        #expect(throws: InputError.self) { try LessonInputs.parseMinutes(text) }
        #expect(InputError.minutes(text).errorDescription?.contains("from 10 to 180") == true)
    }

    @Test func topicIsRequiredAndLimited() throws {
        #expect(throws: InputError.topicMissing) { try LessonInputs.validTopic("   ") }
        #expect(throws: InputError.topicTooLong(201, bytes: 201)) { try LessonInputs.validTopic(String(repeating: "a", count: 201)) }
        #expect(try LessonInputs.validTopic("  Photosynthesis ") == "Photosynthesis")
        #expect(try LessonInputs.validTopic(String(repeating: "é", count: 200)).count == 200)
    }

    @Test func optionalFieldsAreLimited() throws {
        #expect(throws: InputError.fieldTooLong(field: "standards", count: 1001)) {
            try LessonInputs(grade: .sixTo8, topic: "x", minutes: 45, standards: String(repeating: "s", count: 1001))
        }
        let inputs = try LessonInputs(grade: .sixTo8, topic: " x ", minutes: 45, constraints: " none ")
        #expect(inputs.topic == "x" && inputs.constraints == "none")
    }
}
