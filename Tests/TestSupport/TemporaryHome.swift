import Foundation
import LessonPlanKit
import LessonPlanStore

/// A fresh temporary data directory per test.
package struct TemporaryHome {
    package let url: URL
    package let directory: DataDirectory
    package var store: SessionStore { SessionStore(directory: directory) }

    package init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "lessonplan-test-\(UUID().uuidString)")
        directory = DataDirectory(root: url)
        try directory.prepare()
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }
}
