import Foundation
import SCACore
import SCAEngine
import SCAStorage

/// Where "Approve on your phone" stands for a visit (``ConsentService/phoneApproval(of:operationID:)``).
package enum PhoneApproval: Sendable {
    /// The visit's request is not (or no longer) this consent's way on: the page starts over.
    case gone
    /// The phone has not answered.
    case waiting(ConsentRecord, operation: OperationRecord, clientName: String, deviceName: String)
    /// The phone approved and the consent is accepted: back to the partner.
    case accepted(ConsentRecord)
    /// The account holder said on the phone that they did not ask for it: refused.
    case notMe(ConsentRecord, clientName: String)
    /// The phone declined, did not answer in time, or could not confirm the user: the consent
    /// stays open for another way.
    case ended(ConsentRecord, status: OperationStatus, clientName: String)
}

/// What asking the phone did (``ConsentService/askPhone(_:withdrawing:)``).
package enum PhoneRequest: Sendable {
    /// The phone is asked; the consent's challenge is now the operation's.
    case asked(OperationRecord)
    /// The phone cannot be asked (no device any more, a policy its keys cannot meet).
    case refused(Problem)
    /// The consent is not one a phone may approve now (closed, not a phone's kind, out of time).
    case notPossible
}

// "Approve on your phone": the consent's SCA done by the user's bound phone. Choosing it opens a
// decoupled operation bound to exactly the consent's operation and transaction, and makes that
// operation's challenge the consent's challenge: the phone's proofs complete the consent's own
// SCA, so the token is the one a factor approval would give.
extension ConsentService {
    /// Whether a phone can show and approve the consent's operation: a payment (amount, payee
    /// and IBAN on the phone) or a settings change. Adding a beneficiary is not an operation a
    /// phone is asked to approve.
    static func phoneCanApprove(_ consent: ConsentRecord) -> Bool {
        consent.operation == .payment || consent.operation == .settingsChange
    }

    /// The user's phone that may approve the consent, among the user's `devices`: an active
    /// device with a biometric key, for an operation a phone approves; nil otherwise.
    static func approvingPhone(for consent: ConsentRecord, among devices: [DeviceRecord]) -> DeviceRecord? {
        guard phoneCanApprove(consent) else { return nil }
        return OperationService.approvingDevice(among: devices)
    }

    /// Asks the user's phone, withdrawing the visit's earlier request first (it expired).
    package func askPhone(_ id: String, withdrawing previous: String?) async throws -> PhoneRequest {
        let consent = try await load(id)
        guard consent.status.isOpen, Self.phoneCanApprove(consent) else { return .notPossible }
        if let previous { await withdraw(previous, of: consent) }
        let remaining = Int(consent.expiresAt.timeIntervalSince(runtime.now()).rounded(.down))
        let lifetime = min(OperationService.defaultLifetime, remaining)
        guard lifetime >= 1 else { return .notPossible }
        let clientName = try await partnerName(of: consent)
        let operation: OperationRecord
        do {
            operation = try await operations.open(
                userID: consent.userID, operation: consent.operation.operation, transaction: consent.transaction,
                bindingMessage: Self.bindingMessage(clientName: clientName, code: Self.comparisonCode(runtime)),
                lifetime: lifetime, delegation: delegation(for: consent, clientName: clientName),
                // The browser's own challenge budget: a page that asks again and again is
                // limited like any caller of POST /v1/challenges from that address.
                admitted: false)
        } catch let problem as Problem where problem.status < 500 {
            return .refused(problem)
        }
        do {
            // From here the consent's SCA is the operation's challenge: the phone completes it.
            let previousChallenge = consent.challengeID
            _ = try await attach(operation.challengeID, to: consent)
            if let previousChallenge { _ = try? await challenges.cancel(previousChallenge) }
        } catch {
            await withdraw(operation.id, of: consent)
            throw error
        }
        return .asked(operation)
    }

    /// Where the visit's request to the phone stands; an approval accepts the consent
    /// (``accept(_:completing:with:)``), a "not me" refuses it.
    package func phoneApproval(of id: String, operationID: String) async throws -> PhoneApproval {
        let consent = try await load(id)
        guard let operation = try? await operations.load(operationID), operation.userID == consent.userID else {
            return .gone
        }
        guard consent.status.isOpen else {
            await withdraw(operationID, of: consent)
            return .gone
        }
        let clientName = try await partnerName(of: consent)
        switch operation.status {
        case .pending:
            guard consent.challengeID == operation.challengeID else {
                // The consent went on without the phone (another visit started over).
                await withdraw(operationID, of: consent)
                return .gone
            }
            let deviceName = try await store.device(id: operation.deviceID)?.name ?? "your phone"
            return .waiting(consent, operation: operation, clientName: clientName, deviceName: deviceName)
        case .approved:
            guard let token = try operations.describe(operation).accessToken,
                case .decided(let accepted) = try await accept(consent, completing: operation.challengeID, with: token)
            else { return .gone }
            return .accepted(accepted)
        case .rejected where operation.rejectReason == .notMe:
            return .notMe(try await move(consent, to: .customerRefused), clientName: clientName)
        case .rejected, .expired, .failed:
            return .ended(consent, status: operation.status, clientName: clientName)
        case .canceled:
            return .gone
        }
    }

    /// Cancels the operation if it is still pending (best effort: it may have just ended), so
    /// the phone no longer lists it.
    package func withdraw(_ operationID: String, of consent: ConsentRecord) async {
        _ = try? await operations.cancel(operationID, by: .partner(clientID: consent.clientID))
    }

    /// What the phone shows under the operation, naming the partner, with a code the page
    /// shows too, so the user can tell this request from any other.
    static func bindingMessage(clientName: String, code: String) -> String {
        let suffix = " · code \(code)"
        let room = OperationService.maxBindingMessageLength - suffix.count
        let name = clientName.count > room ? clientName.prefix(room - 1) + "…" : clientName
        let message = name + suffix
        if case .success(let normalized) = DisplayText.normalized(
            message, field: "bindingMessage", maxLength: OperationService.maxBindingMessageLength)
        {
            return normalized
        }
        return "Code \(code)"
    }

    /// Four random digits.
    static func comparisonCode(_ runtime: ServerRuntime) -> String {
        let bytes = runtime.random.bytes(4)
        let value = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 10_000
        let digits = String(value)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
