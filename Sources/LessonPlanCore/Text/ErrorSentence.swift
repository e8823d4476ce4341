import Foundation

extension Error {
    /// The one sentence to show for any error this tool raises.
    package var message: String {
        (self as? LocalizedError)?.errorDescription ?? String(describing: self)
    }
}
