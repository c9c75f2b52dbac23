import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers an HTTP authentication challenge by declining it, so a 401 comes back as an error.
///
/// Without it, a wrong admin key hung the harness on Linux (swift-corelibs-foundation of Swift
/// 6.3.1): the admin API's 401 left `data(for:)` suspended for ever, the failure mode of
/// swiftlang/swift-corelibs-foundation#5456. With it, the 401 and its problem document come back.
final class AuthChallengeRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
