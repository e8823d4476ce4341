// The fixtures below the engine are in support targets of their own, so the unit tests of a lower target can use
// them; every suite that imports TestSupport sees them too.
@_exported import CoreTestSupport
import Foundation
import LessonPlanKit
@_exported import ModelTestSupport
@_exported import StoreTestSupport

/// The number of what a `turn_ended` line read as JSON says its turn made of `kind` (`"made":{"kind":…,"number":…}`).
package func madeNumber(_ line: [String: Any], _ kind: String) -> Int? {
    guard let made = line["made"] as? [String: Any], made["kind"] as? String == kind else { return nil }
    return made["number"] as? Int
}
