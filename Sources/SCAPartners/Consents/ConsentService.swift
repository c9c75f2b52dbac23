import Foundation
import SCACore
import SCAEngine
import SCAStorage

/// Consents to single operations: a partner creates one with a user's access token,
/// the user approves or refuses it on the hosted page with strong customer authentication, and
/// the partner reads the result. Statuses and their moves are `ConsentStatus` (pure); every
/// move is written with its audit entry and its webhook event in one store transaction.
package struct ConsentService: EngineService, Sendable {
    package let context: EngineContext
    let tokens: TokenService
    /// The consent's SCA: the page's challenge, or a phone operation's.
    let challenges: ChallengeService
    let operations: OperationService
    /// Where decided statuses are announced to the partner (the webhook outbox).
    let webhooks: WebhookService

    static let sealingContext = "consent-token"

    // MARK: Partner API

    /// `POST /v1/consents`.
    /// - Throws: `Problem` 401/403 for a token not issued to a partner client with the
    ///   `consents` scope, 400 for a malformed operation or an unregistered redirect URL.
    package func create(_ request: CreateConsentRequest, presenting presented: PresentedToken) async throws -> ConsentResponse {
        let (userID, client) = try await partner(presented)
        guard RedirectURIRules.matches(request.consentRedirectUrl, registered: client.consentRedirectURIs) else {
            throw Problem.consentRedirectNotRegistered
        }
        if let resourceID = request.resourceId {
            guard (1...128).contains(resourceID.utf8.count), resourceID.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) else {
                throw Problem.invalidRequest("resourceId must be 1 to 128 printable ASCII characters")
            }
        }
        var record = ConsentRecord(
            id: runtime.makeID(prefix: "cst"), clientID: client.id, userID: userID, operation: request.operation,
            redirectURL: request.consentRedirectUrl, resourceID: request.resourceId, createdAt: runtime.now(),
            expiresAt: runtime.now().addingTimeInterval(TimeInterval(configuration.consentLifetime)))
        switch request.operation {
        case .payment:
            guard request.beneficiary == nil, request.description == nil else {
                throw Problem.invalidRequest("a payment consent takes a transaction only")
            }
            guard let transaction = request.transaction else { throw Problem.invalidRequest("payment needs a transaction") }
            switch TransactionRules.normalized(transaction) {
            case .success(let normalized): record.transaction = normalized
            case .failure(let violation): throw Problem.invalidRequest("transaction: \(violation.reason)")
            }
        case .beneficiaryAdd:
            guard request.transaction == nil, request.description == nil, let beneficiary = request.beneficiary else {
                throw Problem.invalidRequest("beneficiary_add takes a beneficiary (name and IBAN) only")
            }
            guard case .success(let name) = DisplayText.normalized(
                beneficiary.name, field: "beneficiary.name", maxLength: DisplayText.maxPayeeNameLength)
            else { throw Problem.invalidRequest("beneficiary.name must be 1 to \(DisplayText.maxPayeeNameLength) plain characters") }
            guard let iban = IBAN.normalized(beneficiary.iban) else { throw Problem.invalidRequest("beneficiary.iban is not a valid IBAN") }
            record.beneficiary = ConsentBeneficiary(name: name, iban: iban)
        case .settingsChange:
            guard request.transaction == nil, request.beneficiary == nil, let description = request.description else {
                throw Problem.invalidRequest("settings_change takes a description only")
            }
            guard case .success(let summary) = DisplayText.normalized(description, field: "description", maxLength: 140) else {
                throw Problem.invalidRequest("description must be 1 to 140 plain characters")
            }
            record.summary = summary
        }
        let entry = audit.prepare(
            .consentChanged, userID: record.userID, operation: record.operation.operation,
            details: ["consentId": record.id, "clientId": client.id, "to": record.status.rawValue])
        try await store.insertConsent(record, auditing: entry.draft)
        audit.committed([entry])
        return try describe(record)
    }

    /// `GET /v1/consents/{id}`: the consent of this partner, expired if its time is up.
    package func get(_ id: String, presenting presented: PresentedToken) async throws -> ConsentResponse {
        let (_, client) = try await partner(presented)
        return try describe(try await owned(id, by: client))
    }

    /// `DELETE /v1/consents/{id}`.
    /// - Throws: 409 `consent.closed` when it is final already.
    func cancel(_ id: String, presenting presented: PresentedToken) async throws -> ConsentResponse {
        let (_, client) = try await partner(presented)
        let consent = try await owned(id, by: client)
        return try describe(try await move(consent, to: .canceled))
    }

    /// `POST /v1/consents/{id}/status`: the partner reports it executes (`OperationCommitting`)
    /// or could not execute (`Failed`) an accepted operation.
    func report(_ id: String, status: ConsentStatus, presenting presented: PresentedToken) async throws -> ConsentResponse {
        guard status == .operationCommitting || status == .failed else {
            throw Problem.invalidRequest("status must be OperationCommitting or Failed")
        }
        let (_, client) = try await partner(presented)
        let consent = try await owned(id, by: client)
        return try describe(try await move(consent, to: status))
    }

    // MARK: Hosted page

    /// The consent, expired first if its time is up.
    /// - Throws: `Problem.consentNotFound`.
    package func load(_ id: String) async throws -> ConsentRecord {
        guard InputRules.isWellFormedID(id, prefix: "cst"), let consent = try await store.consent(id: id) else {
            throw Problem.consentNotFound
        }
        return await expiredIfDue(consent)
    }

    /// The consent as read, or expired (and recorded so) when its time is up; as read when
    /// that write fails, for the next visit to try again.
    func expiredIfDue(_ consent: ConsentRecord) async -> ConsentRecord {
        var expired = consent
        if expired.expireIfDue(now: runtime.now()) {
            return (try? await move(consent, to: .expired)) ?? consent
        }
        return consent
    }

    /// Moves the consent to `next`, retrying on a concurrent change, and records it.
    /// - Parameter change: more to store with the move (the challenge, the token).
    /// - Throws: 409 `consent.closed` when the status does not allow it.
    @discardableResult
    func move(
        _ loaded: ConsentRecord, to next: ConsentStatus, _ change: @Sendable (inout ConsentRecord) throws -> Void = { _ in }
    ) async throws -> ConsentRecord {
        try await CompareAndSet.retrying(from: loaded, reload: { try await reload(loaded) }) { consent in
            guard let decision = try decision(consent, to: next, change) else {
                var expired = consent
                if expired.expireIfDue(now: runtime.now()), next != .expired {
                    return try await move(consent, to: .expired)
                }
                throw Problem.consentClosed(consent.status)
            }
            // The status, its webhook event and its audit entry are one store operation: no
            // crash between them.
            let write = decision.change
            guard try await store.updateConsent(
                write.consent, expectedVersion: write.expectedVersion, enqueueing: write.event, auditing: write.audit)
            else { return nil }
            audit.committed([decision.event])
            var updated = write.consent
            updated.version += 1
            return updated
        }
    }

    /// The move of `consent` (as read) to `next`, with `change` applied, as one write stores it:
    /// the record, its webhook event and its audit entry. Pure but for the event's id and time.
    /// - Returns: nil when the status does not allow the move.
    func decision(
        _ consent: ConsentRecord, to next: ConsentStatus, _ change: (inout ConsentRecord) throws -> Void = { _ in }
    ) rethrows -> ConsentDecision? {
        var updated = consent
        guard updated.move(to: next, now: runtime.now()) else { return nil }
        try change(&updated)
        let entry = audit.prepare(
            .consentChanged, userID: updated.userID, challengeID: updated.challengeID,
            operation: updated.operation.operation,
            details: [
                "consentId": updated.id, "clientId": updated.clientID, "from": consent.status.rawValue,
                "to": updated.status.rawValue,
            ])
        return ConsentDecision(
            change: ConsentChange(
                consent: updated, expectedVersion: consent.version, event: webhooks.event(for: updated), audit: entry.draft),
            event: entry)
    }

    /// Stores the once-only operation token of an accepted consent, sealed, once it is checked
    /// to be the consent's partner's (``TokenService/handOff(_:to:)``).
    func seal(_ accessToken: String, for consent: ConsentRecord) async throws -> [UInt8] {
        _ = try await tokens.handOff(accessToken, to: consent.clientID)
        return try box.seal(Array(accessToken.utf8), context: Self.sealingContext)
    }

    /// What the consent's challenge is for: the partner it is delegated to and what the user
    /// approves, which its code message names. A beneficiary is kept as name and IBAN, so each
    /// message words it in its reader's language; a settings change's description is the
    /// partner's own text, shown as written.
    func delegation(for consent: ConsentRecord, clientName: String) -> Delegation {
        var delegation = Delegation(clientID: consent.clientID, clientName: clientName, grant: .consent(id: consent.id))
        switch consent.operation {
        case .payment: break  // its transaction names it
        case .beneficiaryAdd: delegation.beneficiary = consent.beneficiary
        case .settingsChange: delegation.summary = consent.summary
        }
        return delegation
    }

    /// The consent URL the user opens.
    func url(of consent: ConsentRecord) -> String {
        "\(configuration.baseURL)/consents/\(consent.id)"
    }

    /// `consentRedirectUrl` with `consentId`, `status` and `resourceId`. The status is a hint:
    /// the partner confirms through `GET /v1/consents/{id}`.
    package func redirect(for consent: ConsentRecord) -> String {
        var parameters = [("consentId", consent.id), ("status", consent.status.rawValue)]
        if let resourceID = consent.resourceID { parameters.append(("resourceId", resourceID)) }
        return RedirectURIRules.appending(parameters, to: consent.redirectURL)
    }

    // MARK: Helpers

    /// The user and the client behind a partner's access token of scope `consents`.
    private func partner(_ presented: PresentedToken) async throws -> (userID: String, client: PartnerClientRecord) {
        let claims = try await tokens.authorize(
            presented, for: [.login, .accountInfo], at: .partner(scope: "consents"), consume: false)
        guard let clientID = claims.clientID, let client = try await store.partnerClient(id: clientID) else {
            throw Problem.tokenInvalid
        }
        return (claims.sub.value, client)
    }

    /// A consent of `client`: another client's answers as an unknown one would.
    private func owned(_ id: String, by client: PartnerClientRecord) async throws -> ConsentRecord {
        let consent = try await load(id)
        guard consent.clientID == client.id else { throw Problem.consentNotFound }
        return consent
    }

    func describe(_ consent: ConsentRecord) throws -> ConsentResponse {
        var accessToken: String?
        if consent.status == .accepted, let sealed = consent.sealedToken {
            accessToken = String(decoding: try box.open(sealed, context: Self.sealingContext), as: UTF8.self)
        }
        return ConsentResponse(
            consentId: consent.id, consentUrl: url(of: consent), status: consent.status, operation: consent.operation,
            transaction: consent.transaction, beneficiary: consent.beneficiary, description: consent.summary,
            consentRedirectUrl: consent.redirectURL, resourceId: consent.resourceID, createdAt: consent.createdAt,
            expiresAt: consent.expiresAt, accessToken: accessToken)
    }
}

extension ConsentService {
    /// Stores a new challenge for an open consent whose challenge ran out of time (the
    /// consent's status does not change).
    func replaceChallenge(_ loaded: ConsentRecord, with challengeID: String) async throws -> ConsentRecord {
        try await CompareAndSet.retrying(from: loaded, reload: { try await reload(loaded) }) { consent in
            var updated = consent
            updated.challengeID = challengeID
            updated.updatedAt = runtime.now()
            guard try await store.updateConsent(updated, expectedVersion: consent.version) else { return nil }
            updated.version += 1
            return updated
        }
    }

    /// The consent as stored now, for another round of a compare-and-set.
    private func reload(_ consent: ConsentRecord) async throws -> ConsentRecord {
        guard let reloaded = try await store.consent(id: consent.id) else { throw Problem.consentNotFound }
        return reloaded
    }
}
