/// "1 version", "2 versions": counts read as words, never "version(s)".
package func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
