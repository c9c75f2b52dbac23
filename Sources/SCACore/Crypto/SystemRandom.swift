/// The operating system's cryptographically secure generator (`SystemRandomNumberGenerator`:
/// `getrandom` on Linux, `arc4random` on Apple platforms). The source to use outside tests.
package struct SystemRandom: RandomSource {
    package init() {}

    package func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var output: [UInt8] = []
        output.reserveCapacity(count)
        while output.count < count {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) where output.count < count {
                output.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return output
    }
}
