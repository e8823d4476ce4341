import Foundation

/// The QTI 1.2 zip Canvas imports (Course → Settings → Import Course Content → QTI .zip file): `imsmanifest.xml`
/// at its root naming one `imsqti_xmlv1p2` resource, the assessment in a folder of its own.
package enum CanvasQTIPackage {
    /// The files of the zip, manifest first.
    package static func files(_ quiz: LMSQuiz) -> [(path: String, data: Data)] {
        let folder = quiz.identifier
        let assessment = "\(folder)/\(folder).xml"
        let manifest = """
            <?xml version="1.0" encoding="UTF-8"?>
            <manifest identifier="\(quiz.identifier)_manifest" xmlns="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1 http://www.imsglobal.org/xsd/imscp_v1p1.xsd">
              <metadata>
                <schema>IMS Content</schema>
                <schemaversion>1.1.3</schemaversion>
              </metadata>
              <organizations/>
              <resources>
                <resource identifier="\(quiz.identifier)" type="imsqti_xmlv1p2">
                  <file href="\(assessment)"/>
                </resource>
              </resources>
            </manifest>

            """
        return [
            ("imsmanifest.xml", Data(manifest.utf8)),
            (assessment, Data(QTIAssessment.render(quiz, profile: .canvas).utf8)),
        ]
    }

    package static func render(_ quiz: LMSQuiz, tools: LMSTools) async throws -> Data {
        try await tools.zip(files(quiz), what: "a QTI zip")
    }
}
