import Foundation

/// The learning platforms' import formats a quiz can be exported in (`/export quiz FORMAT`); what each is called, its
/// file's name and what the platform imports are rows of the export table (`ExportTable`).
package enum LMSFormat: String, CaseIterable, Sendable {
    case qti, imscc, gift, moodle, aiken, blackboard, kahoot
}
