import Foundation
import SCAEngine

extension SCAServices {
    /// One pass of the background signature sweep (``signatureSweep``): forgets the burnt signatures expired at the
    /// runtime's now (the clock the burns were stamped with, an injected one in tests).
    /// - Returns: how many were forgotten.
    @discardableResult
    package func forgetExpiredSignatures() async throws -> Int {
        try await engine.store.forgetUsedSignatures(expiredBefore: engine.runtime.now())
    }
}
