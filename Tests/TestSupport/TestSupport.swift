import Foundation
import LessonPlanKit

/// The number of what a `turn_ended` line read as JSON says its turn made of `kind` (`"made":{"kind":…,"number":…}`).
package func madeNumber(_ line: [String: Any], _ kind: String) -> Int? {
    guard let made = line["made"] as? [String: Any], made["kind"] as? String == kind else { return nil }
    return made["number"] as? Int
}
