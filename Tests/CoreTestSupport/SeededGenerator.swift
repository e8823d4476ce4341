import LessonPlanCore

/// A small deterministic random number generator, so generated tests repeat exactly: the one quiz forms use.
package typealias SeededGenerator = SplitMix64

extension SeededGenerator {
    /// Damages `bytes` in one to three places (a byte dropped, inserted from `noise`, replaced, or a
    /// short run repeated), so fast paths can be checked to agree with their full decoders on junk.
    package mutating func damage(_ bytes: inout [UInt8], noise: [UInt8]) {
        for _ in 0..<Int.random(in: 1...3, using: &self) where !bytes.isEmpty {
            let at = Int.random(in: 0..<bytes.count, using: &self)
            switch Int.random(in: 0..<4, using: &self) {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(noise.randomElement(using: &self) ?? 0x20, at: at)
            case 2: bytes[at] = noise.randomElement(using: &self) ?? 0x20
            default:
                let end = min(bytes.count, at + Int.random(in: 1...12, using: &self))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            }
        }
    }
}
