import Foundation

/// Moodle XML: one `<question type="multichoice">` per item, each answer with its fraction and its `<feedback>` (a
/// wrong answer's student feedback; empty for the key and the teacher's misconception never in it).
///
/// Texts are HTML fragments (`format="html"`) escaped twice over: once so the page shows `<`, `&` and quotes as
/// written, once more for the XML around them.
package enum MoodleXMLQuiz {
    package static func render(_ quiz: LMSQuiz) -> String {
        var out = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<!-- \(LMSText.comment(LMSText.xml(quiz.title))): written by lessonplan -->", "<quiz>",
        ]
        for item in quiz.items {
            out.append("  <question type=\"multichoice\">")
            out.append("    <name><text>\(LMSText.xml("\(quiz.kindTitle) \(item.number)"))</text></name>")
            out.append("    <questiontext format=\"html\"><text>\(field(item.stem))</text></questiontext>")
            out.append("    <generalfeedback format=\"html\"><text></text></generalfeedback>")
            out.append("    <defaultgrade>1</defaultgrade>")
            out.append("    <penalty>0</penalty>")
            out.append("    <hidden>0</hidden>")
            out.append("    <single>true</single>")
            out.append("    <shuffleanswers>false</shuffleanswers>")
            out.append("    <answernumbering>ABCD</answernumbering>")
            for option in item.options {
                out.append("    <answer fraction=\"\(option.isKey ? 100 : 0)\" format=\"html\">")
                out.append("      <text>\(field(option.text))</text>")
                out.append("      <feedback format=\"html\"><text>\(field(option.feedback))</text></feedback>")
                out.append("    </answer>")
            }
            out.append("  </question>")
        }
        out.append("</quiz>")
        return out.joined(separator: "\n") + "\n"
    }

    /// An HTML fragment inside an XML element.
    static func field(_ text: String) -> String { LMSText.xml(LMSText.html(text)) }
}
