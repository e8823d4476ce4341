import Foundation

/// An IMS Common Cartridge 1.1 of the lesson: the plan as a page (for the teacher: marked Instructor), the
/// handouts as a page when made from the same plan version, and each quiz (the starter and the exit quiz, say) as
/// one of the cartridge's QTI assessments.
/// Or a cartridge of pages only (a unit: its overview and each lesson a page), with no assessment.
///
/// The pages are the tool's own printable HTML, with the quiz left out of them: it is the assessment, and the
/// plan's page would otherwise carry its answer key.
package enum CommonCartridge {
    /// A page of the cartridge.
    package struct Page: Sendable {
        package var identifier: String
        package var title: String
        package var html: String
        /// Only the teacher sees it (CC 1.1's `intendedEndUserRole` Instructor).
        package var teacherOnly: Bool

        package init(identifier: String, title: String, html: String, teacherOnly: Bool) {
            self.identifier = identifier
            self.title = title
            self.html = html
            self.teacherOnly = teacherOnly
        }
    }

    /// The files of a lesson's cartridge (its pages, then each quiz), manifest first; named by the first quiz.
    package static func files(_ quizzes: [LMSQuiz], lesson: String, pages: [Page]) -> [(path: String, data: Data)] {
        files(title: lesson, identifier: quizzes.first?.identifier ?? "lesson", pages: pages, quizzes: quizzes)
    }

    /// The files of a cartridge, manifest first: `pages` in order, then each of `quizzes` as an assessment.
    /// - Parameters:
    ///   - title: The cartridge's title, and its one folder's, as a platform lists them.
    ///   - identifier: Letters and digits only (it starts every identifier and path in the cartridge), as
    ///     ``LMSQuiz/identifier`` is; each page's ``Page/identifier`` must be too.
    ///   - folder: The name in the identifier of the folder holding the items (`lesson`, `unit`).
    package static func files(
        title: String, identifier id: String, pages: [Page], quizzes: [LMSQuiz] = [], folder: String = "lesson"
    ) -> [(path: String, data: Data)] {
        var items: [String] = []
        var resources: [String] = []
        var files: [(path: String, data: Data)] = []
        for page in pages {
            let href = "\(id)_\(page.identifier)/\(page.identifier).html"
            items.append(
                """
                        <item identifier="\(id)_\(page.identifier)_item" identifierref="\(id)_\(page.identifier)">
                          <title>\(LMSText.xml(page.title.oneLine))</title>
                        </item>
                """)
            let role = page.teacherOnly ? instructorOnly : ""
            resources.append(
                """
                    <resource identifier="\(id)_\(page.identifier)" type="webcontent" href="\(href)">\(role)
                      <file href="\(href)"/>
                    </resource>
                """)
            files.append((href, Data(page.html.utf8)))
        }
        for (index, quiz) in quizzes.enumerated() {
            // The first quiz keeps the name a cartridge of one quiz always had; the next are quiz2, quiz3.
            let name = "\(id)_quiz\(index == 0 ? "" : String(index + 1))"
            let assessment = "\(name)/assessment.xml"
            items.append(
                """
                        <item identifier="\(name)_item" identifierref="\(name)">
                          <title>\(LMSText.xml(quiz.title.oneLine))</title>
                        </item>
                """)
            resources.append(
                """
                    <resource identifier="\(name)" type="imsqti_xmlv1p2/imscc_xmlv1p1/assessment">
                      <file href="\(assessment)"/>
                    </resource>
                """)
            files.append((assessment, Data(QTIAssessment.render(quiz, profile: .commonCartridge).utf8)))
        }
        let manifest = """
            <?xml version="1.0" encoding="UTF-8"?>
            <manifest identifier="\(id)_cartridge" xmlns="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1" xmlns:lomimscc="http://ltsc.ieee.org/xsd/imsccv1p1/LOM/manifest" xmlns:lom="http://ltsc.ieee.org/xsd/imsccv1p1/LOM/resource" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1 http://www.imsglobal.org/profile/cc/ccv1p1/ccv1p1_imscp_v1p2_v1p0.xsd http://ltsc.ieee.org/xsd/imsccv1p1/LOM/manifest http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lommanifest_v1p0.xsd http://ltsc.ieee.org/xsd/imsccv1p1/LOM/resource http://www.imsglobal.org/profile/cc/ccv1p1/LOM/ccv1p1_lomresource_v1p0.xsd">
              <metadata>
                <schema>IMS Common Cartridge</schema>
                <schemaversion>1.1.0</schemaversion>
                <lomimscc:lom>
                  <lomimscc:general>
                    <lomimscc:title><lomimscc:string>\(LMSText.xml(title.oneLine))</lomimscc:string></lomimscc:title>
                  </lomimscc:general>
                </lomimscc:lom>
              </metadata>
              <organizations>
                <organization identifier="\(id)_organization" structure="rooted-hierarchy">
                  <item identifier="\(id)_root">
                    <item identifier="\(id)_\(folder)">
                      <title>\(LMSText.xml(title.oneLine))</title>
            \(items.joined(separator: "\n"))
                    </item>
                  </item>
                </organization>
              </organizations>
              <resources>
            \(resources.joined(separator: "\n"))
              </resources>
            </manifest>

            """
        return [("imsmanifest.xml", Data(manifest.utf8))] + files
    }

    /// A resource's metadata that only the teacher sees it, from the line break after its opening tag.
    private static let instructorOnly = """

              <metadata>
                <lom:lom>
                  <lom:educational>
                    <lom:intendedEndUserRole>
                      <lom:source>IMSGLC_CC_Rolesv1p1</lom:source>
                      <lom:value>Instructor</lom:value>
                    </lom:intendedEndUserRole>
                  </lom:educational>
                </lom:lom>
              </metadata>
        """

    package static func render(_ quizzes: [LMSQuiz], lesson: String, pages: [Page], tools: LMSTools) async throws -> Data {
        try await tools.zip(files(quizzes, lesson: lesson, pages: pages), what: "a Common Cartridge")
    }

    /// A cartridge of pages only, with no assessment: a unit's overview and lessons, say.
    /// - Parameters: as ``files(title:identifier:pages:quizzes:folder:)``'s.
    /// - Throws: ``ExportError`` when `zip` is missing or fails.
    package static func render(title: String, identifier: String, pages: [Page], folder: String = "lesson", tools: LMSTools)
        async throws -> Data
    {
        try await tools.zip(files(title: title, identifier: identifier, pages: pages, folder: folder), what: "a Common Cartridge")
    }
}
