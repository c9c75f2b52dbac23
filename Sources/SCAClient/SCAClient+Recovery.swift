import Foundation
import SCACore

extension SCAClient {
    /// Issues a new recovery sheet: a code and ten single-use PUKs the user writes down or
    /// prints, kept away from this device. It replaces the earlier sheet. Issuing one is a
    /// sensitive change, so this runs a `settings_change` challenge first, with the collector
    /// as any other challenge; its token is used for the sheet alone.
    ///
    /// - Parameters:
    ///   - collector: asks the user.
    ///   - prefill: secrets already typed, used on their method's first try.
    /// - Returns: the sheet, which the server never shows again.
    /// - Throws: ``SCAClientError/notSignedIn`` with neither a binding nor a session; otherwise as
    ///   ``authenticate(challenge:using:prefill:)``; `URLError`.
    public func issueRecoverySheet(
        using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> RecoverySheetResponse {
        let (user, device) = try await subject()
        let challenge = try await startChallenge(for: .settingsChange, user: user, device: device)
        let tokens = try await authenticate(challenge: challenge, using: collector, prefill: prefill)
        return try await transport.send(.post, "v1/me/recovery-sheet", bearer: tokens.accessToken)
    }

    /// What is left of the signed-in user's recovery sheet: PUKs left, the number of the next
    /// one, whether recovery is blocked. Never the code or a PUK.
    ///
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` with
    ///   `recovery.no_sheet` when the user has none; `URLError`.
    public func recoverySheetStatus() async throws -> RecoverySheetStatusResponse {
        try await withAccessToken { token in try await transport.send(.get, "v1/me/recovery-sheet", bearer: token) }
    }

    /// Binds this device after a lost phone, with the recovery sheet and the user's password
    /// or PIN: makes two P-256 keys, registers them with a proof of possession over the code
    /// and the PUK, and stores the binding. The server removes every other device of the user
    /// and ends every session, and alerts the user.
    ///
    /// As with activation, an earlier binding on this device stays until the server has
    /// accepted the new one.
    ///
    /// - Parameters:
    ///   - code: the sheet's recovery code as typed (case, spaces and dashes do not matter).
    ///   - puk: the next unused PUK on the sheet (spaces and dashes do not matter).
    ///   - knowledge: the user's password or PIN.
    ///   - name: a name for this device, shown in the user's device list.
    /// - Returns: the stored binding, and what the recovery ended.
    /// - Throws: ``SCAClientError/server(_:)`` with `recovery.failed` (a mistyped code or PUK is
    ///   refused locally and costs no attempt; otherwise with the attempts left),
    ///   `recovery.locked`, `user.locked`, `request.invalid`; the key store's errors; `URLError`.
    public func recover(
        code: String, puk: String, knowledge: RecoveryKnowledge, name: String
    ) async throws -> (binding: DeviceBinding, recovery: RecoveryResponse) {
        guard let recoveryCode = ActivationCode(code), let recoveryPUK = RecoveryPUK(puk) else {
            throw SCAClientError.server(
                Problem(
                    status: 400, code: .recoveryFailed, title: "Recovery failed",
                    detail: "The recovery code or the PUK is mistyped."))
        }
        let (password, pin): (String?, String?) = switch knowledge {
        case .password(let secret): (secret, nil)
        case .pin(let secret): (nil, secret)
        }
        let (binding, recovered) = try await bindNewKeys(
            signing: DeviceSignature.recoveryPayload(code: recoveryCode, puk: recoveryPUK), name: name
        ) { pending, proof, deviceName in
            let request = RecoveryRequest(
                recoveryCode: recoveryCode.description, puk: recoveryPUK.digits, password: password, pin: pin,
                name: deviceName, platform: configuration.platform, possessionKey: Base64URL.encode(pending.possession),
                biometryKey: pending.biometry.map { Base64URL.encode($0) }, proof: Base64URL.encode(proof))
            let recovered: RecoveryResponse = try await transport.send(.post, "v1/recovery", body: request)
            return (recovered.deviceId, recovered.userId, recovered)
        }
        return (binding, recovered)
    }
}

/// The knowledge element a recovery proves beside the sheet.
public enum RecoveryKnowledge: Sendable {
    case password(String)
    case pin(String)
}
