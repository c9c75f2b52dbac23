import Crypto
import Synchronization

/// A deterministic byte stream for tests: the same seed always yields the same stream, so a
/// test can predict salts, seeds and codes. Never use it for anything real; the name says so.
///
/// The stream is SHA-256 in counter mode: block `i` is `SHA-256(seed || i)`, both as 8
/// little-endian bytes. Successive calls continue the stream; copies of a value share it.
package struct SeededRandomForTesting: RandomSource {
    private final class Stream: Sendable {
        let seed: UInt64
        let state = Mutex<(counter: UInt64, buffer: [UInt8])>((0, []))

        init(seed: UInt64) { self.seed = seed }
    }

    private let stream: Stream

    package init(seed: UInt64) {
        stream = Stream(seed: seed)
    }

    package func bytes(_ count: Int) -> [UInt8] {
        let seed = stream.seed
        return stream.state.withLock { state in
            while state.buffer.count < count {
                var block = withUnsafeBytes(of: seed.littleEndian, Array.init)
                block += withUnsafeBytes(of: state.counter.littleEndian, Array.init)
                state.buffer += SHA256.hash(data: block)
                state.counter &+= 1
            }
            let output = Array(state.buffer.prefix(count))
            state.buffer.removeFirst(count)
            return output
        }
    }
}
