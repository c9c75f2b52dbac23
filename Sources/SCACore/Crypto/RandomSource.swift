/// Where random bytes come from: injected, so that tests can pin salts, seeds and codes.
package protocol RandomSource: Sendable {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}
