/// Where random bytes come from: injected, so that tests can pin salts, seeds and codes.
public protocol RandomSource: Sendable {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}
