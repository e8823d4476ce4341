import Foundation

/// A quiz as an IMS QTI 1.2 assessment (`questestinterop`): what Canvas's QTI import and a Common Cartridge's
/// assessment both read.
///
/// Each item is a single-answer `response_lid`; the key sets `SCORE` to 100; each wrong answer with student
/// feedback has a `displayfeedback` that shows its own `itemfeedback` (the teacher's misconception never goes in).
/// Texts are `text/html` fragments, escaped for the page and again for the XML.
package enum QTIAssessment {
    /// Which reader the metadata speaks to.
    package enum Profile: Sendable {
        /// Canvas's QTI import: `question_type` and `points_possible` per item.
        case canvas
        /// The Common Cartridge QTI profile: `cc_profile` on the assessment and on each item.
        case commonCartridge
    }

    package static let namespace = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"

    package static func render(_ quiz: LMSQuiz, profile: Profile) -> String {
        let schema =
            switch profile {
            case .canvas: "http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"
            case .commonCartridge: "http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_qtiasiv1p2p1_v1p0.xsd"
            }
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<questestinterop xmlns=\"\(namespace)\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"\(namespace) \(schema)\">",
            "  <assessment ident=\"\(quiz.identifier)\" title=\"\(LMSText.xml(quiz.title.oneLine))\">",
            "    <qtimetadata>",
        ]
        let fields: [(String, String)] =
            switch profile {
            case .canvas: [("cc_maxattempts", "1")]
            case .commonCartridge:
                [("cc_profile", "cc.exam.v0p1"), ("qmd_assessmenttype", "Examination"), ("qmd_scoretype", "Percentage"), ("cc_maxattempts", "1")]
            }
        out += fields.map { "      " + metadataField($0.0, $0.1) }
        out += ["    </qtimetadata>", "    <section ident=\"root_section\">"]
        for item in quiz.items { out += self.item(item, quiz: quiz, profile: profile) }
        out += ["    </section>", "  </assessment>", "</questestinterop>"]
        return out.joined(separator: "\n") + "\n"
    }

    static func item(_ item: LMSQuiz.Item, quiz: LMSQuiz, profile: Profile) -> [String] {
        let ident = "\(quiz.identifier)_q\(item.number)"
        func choice(_ index: Int) -> String { "\(ident)_\(index + 1)" }
        var out = [
            "      <item ident=\"\(ident)\" title=\"\(LMSText.xml("\(quiz.kindTitle) \(item.number)"))\">", "        <itemmetadata>",
            "          <qtimetadata>",
        ]
        let fields: [(String, String)] =
            switch profile {
            case .canvas: [("question_type", "multiple_choice_question"), ("points_possible", "1.0")]
            case .commonCartridge: [("cc_profile", "cc.multiple_choice.v0p1"), ("cc_weighting", "1")]
            }
        out += fields.map { "            " + metadataField($0.0, $0.1) }
        out += ["          </qtimetadata>", "        </itemmetadata>", "        <presentation>"]
        out.append("          <material>\(mattext(item.stem))</material>")
        out.append("          <response_lid ident=\"response1\" rcardinality=\"Single\">")
        out.append("            <render_choice shuffle=\"No\">")
        for (index, option) in item.options.enumerated() {
            out.append("              <response_label ident=\"\(choice(index))\"><material>\(mattext(option.text))</material></response_label>")
        }
        out += ["            </render_choice>", "          </response_lid>", "        </presentation>", "        <resprocessing>"]
        out.append("          <outcomes><decvar maxvalue=\"100\" minvalue=\"0\" varname=\"SCORE\" vartype=\"Decimal\"/></outcomes>")
        for (index, option) in item.options.enumerated() where !option.feedback.isEmpty {
            out.append("          <respcondition continue=\"Yes\">")
            out.append("            <conditionvar><varequal respident=\"response1\">\(choice(index))</varequal></conditionvar>")
            out.append("            <displayfeedback feedbacktype=\"Response\" linkrefid=\"\(choice(index))_fb\"/>")
            out.append("          </respcondition>")
        }
        out.append("          <respcondition continue=\"No\">")
        out.append("            <conditionvar><varequal respident=\"response1\">\(choice(item.keyIndex))</varequal></conditionvar>")
        out.append("            <setvar action=\"Set\" varname=\"SCORE\">100</setvar>")
        out.append("          </respcondition>")
        out.append("        </resprocessing>")
        for (index, option) in item.options.enumerated() where !option.feedback.isEmpty {
            out.append("        <itemfeedback ident=\"\(choice(index))_fb\">")
            out.append("          <flow_mat><material>\(mattext(option.feedback))</material></flow_mat>")
            out.append("        </itemfeedback>")
        }
        out.append("      </item>")
        return out
    }

    static func mattext(_ text: String) -> String {
        "<mattext texttype=\"text/html\">\(LMSText.xml(LMSText.html(text)))</mattext>"
    }

    static func metadataField(_ label: String, _ entry: String) -> String {
        "<qtimetadatafield><fieldlabel>\(label)</fieldlabel><fieldentry>\(entry)</fieldentry></qtimetadatafield>"
    }
}
