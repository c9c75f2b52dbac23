import Synchronization
import Testing
import SCACore

@Suite("OneTimeCode and random sources")
struct OneTimeCodeTests {
    @Test("the requested length, digits only", arguments: [1, 4, 6, 8, 12])
    func shape(digits: Int) {
        let random = SystemRandom()
        for _ in 0..<50 {
            let code = OneTimeCode.generate(digits: digits, using: random)
            #expect(code.utf8.count == digits)
            #expect(code.utf8.allSatisfy { (0x30...0x39).contains($0) })
        }
        #expect(OneTimeCode.generate(using: random).count == 6)
    }

    @Test("SeededRandomForTesting: same seed, same stream; other seed, other stream; the stream advances")
    func seededDeterminism() {
        #expect(SeededRandomForTesting(seed: 42).bytes(100) == SeededRandomForTesting(seed: 42).bytes(100))
        #expect(SeededRandomForTesting(seed: 42).bytes(32) != SeededRandomForTesting(seed: 43).bytes(32))

        let source = SeededRandomForTesting(seed: 42)
        let first = source.bytes(10)
        let second = source.bytes(40)
        #expect(first + second == SeededRandomForTesting(seed: 42).bytes(50))
        #expect(source.bytes(0) == [])

        let codes = (0..<5).map { _ in OneTimeCode.generate(using: SeededRandomForTesting(seed: 7)) }
        #expect(Set(codes).count == 1)
        let stream = SeededRandomForTesting(seed: 7)
        let successive = (0..<5).map { _ in OneTimeCode.generate(using: stream) }
        #expect(successive[0] == codes[0])
        #expect(Set(successive).count == 5)
    }

    @Test("SystemRandom gives the requested count and differs between calls")
    func systemRandom() {
        let random = SystemRandom()
        #expect(random.bytes(0).isEmpty)
        #expect(random.bytes(7).count == 7)
        #expect(random.bytes(32) != random.bytes(32))
    }

    @Test("rough uniformity: every digit in every position, counts near the mean")
    func uniformity() {
        // 6000 six-digit codes: each (position, digit) cell expects 600. A bias such as
        // `byte % 10` without rejection makes 0-5 about 2.4 % likelier: under the bound below,
        // but a digit that never appears, a stuck position or a skew of 20 % fails.
        let random = SeededRandomForTesting(seed: 2024)
        var counts = [[Int]](repeating: [Int](repeating: 0, count: 10), count: 6)
        for _ in 0..<6000 {
            for (position, digit) in OneTimeCode.generate(digits: 6, using: random).utf8.enumerated() {
                counts[position][Int(digit - 0x30)] += 1
            }
        }
        for position in 0..<6 {
            for digit in 0..<10 {
                #expect((480...720).contains(counts[position][digit]), "position \(position), digit \(digit)")
            }
        }
    }

    @Test("rejection sampling: bytes of 250 and above are drawn again, the others map to byte % 10")
    func rejection() {
        let code = OneTimeCode.generate(digits: 6, using: Scripted([255, 250, 7, 251, 3, 249, 253, 9, 10, 1]))
        #expect(code == "739901")
    }
}

/// Replays a fixed byte sequence, in a loop, across calls.
private final class Scripted: RandomSource {
    private let script: [UInt8]
    private let position = Mutex(0)

    init(_ script: [UInt8]) { self.script = script }

    func bytes(_ count: Int) -> [UInt8] {
        position.withLock { position in
            (0..<count).map { _ in
                defer { position += 1 }
                return script[position % script.count]
            }
        }
    }
}
