import Foundation
import LessonPlanStore

/// A fresh temporary data directory per test (its sessions folder, `store`, is TestSupport's: it lists sessions
/// as the engine folds them).
package struct TemporaryHome {
    package let url: URL
    package let directory: DataDirectory

    package init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "lessonplan-test-\(UUID().uuidString)")
        directory = DataDirectory(root: url)
        try directory.prepare()
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }
}
