import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which hosts are this machine, decided by parsing the address rather than matching text, so
/// `127.attacker.example` is someone else's machine.
package enum LoopbackAddress {
    /// True only for `localhost` and literal loopback addresses: 127.0.0.0/8, `::1` (also written
    /// `[::1]`) and IPv4-mapped `::ffff:127.x.y.z`.
    package static func isLoopback(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, name, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        return mapped && bytes[12] == 127
    }

    /// Whether `url` names this machine.
    package static func isLoopback(_ url: URL) -> Bool {
        guard let host = url.host else { return false }
        return isLoopback(host: host)
    }
}
