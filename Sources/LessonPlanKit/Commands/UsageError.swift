import Foundation

/// A command line (or an editor, a file the teacher named) that cannot be used, with what to type instead.
package struct UsageError: Error, LocalizedError {
    package let message: String
    package var errorDescription: String? { message }

    package init(message: String) { self.message = message }
}
