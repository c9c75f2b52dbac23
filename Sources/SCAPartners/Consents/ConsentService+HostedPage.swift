import Foundation
import SCACore
import SCAEngine
import SCALocalization
import SCAStorage

/// What the hosted consent page shows on a visit (``ConsentService/visit(_:waitingForPhone:)``),
/// with the language its user chose (nil: none), which the page speaks after the link's.
package enum ConsentVisit: Sendable {
    /// Open: the challenge its factor forms prove, and the phone that may approve it instead.
    case open(ConsentRecord, clientName: String, language: Language?, challenge: ChallengeResponse, phone: DeviceRecord?)
    /// This visit waits for the phone: the phone's page shows where that stands.
    case waitingForPhone
    /// No longer open, decided now or before: the page says what became of it.
    case closed(ConsentRecord, clientName: String, language: Language?)
}

/// What a step on the hosted consent page did.
package enum ConsentStep: Sendable {
    /// A factor was accepted and another one is needed.
    case moreNeeded
    /// This step decided the consent (accepted, refused): the user goes back to the partner.
    case decided(ConsentRecord)
    /// It was decided before this step: the page says what became of it.
    case closed(ConsentRecord)
}

// The hosted page's decisions: the page renders what one of these returned.
extension ConsentService {
    /// A visit of the consent page: the consent expired if its time is up, refused at once for a
    /// blocked user (who cannot pass SCA), and otherwise open with a challenge the page's forms
    /// can prove, made now on the first visit or when the last one ran out (or was the phone's).
    /// Everything it shows is read at once (``SCAStore/consentContext(id:)``): a later visit
    /// takes that one read, a first one adds the challenge's opening and the consent's start.
    /// - Parameter waitingForPhone: the visit asked the phone and waits for its answer.
    /// - Throws: `Problem.consentNotFound`.
    package func visit(_ id: String, waitingForPhone: Bool) async throws -> ConsentVisit {
        guard InputRules.isWellFormedID(id, prefix: "cst"), let context = try await store.consentContext(id: id) else {
            throw Problem.consentNotFound
        }
        var consent = await expiredIfDue(context.consent)
        let clientName = context.clientName ?? Self.unnamedPartner
        let language = UserService.language(of: context.user)
        guard consent.status.isOpen else { return .closed(consent, clientName: clientName, language: language) }
        if let user = context.user, user.lockout.isBlocked(at: runtime.now()) {
            return .closed(try await move(consent, to: .credentialRefused), clientName: clientName, language: language)
        }
        if waitingForPhone { return .waitingForPhone }
        let phone = Self.approvingPhone(for: consent, among: context.devices)
        if let challenge = context.challenge, challenge.id == consent.challengeID,
            let provable = try await challenges.provableOnPage(challenge)
        {
            return .open(consent, clientName: clientName, language: language, challenge: provable, phone: phone)
        }
        let created: ChallengeResponse
        do {
            // The partner's challenge: its token is the partner's alone, for this consent, and a
            // beneficiary is bound into the proofs as a payment's transaction is.
            created = try await challenges.create(
                CreateChallengeRequest(
                    operation: consent.operation.operation, user: UserReference(userId: consent.userID),
                    transaction: consent.transaction,
                    beneficiary: consent.beneficiary.map { Transaction.Payee(name: $0.name, iban: $0.iban) }),
                delegation: delegation(for: consent, clientName: clientName), read: context.user)
        } catch let problem as Problem where problem.code == .categoriesUnavailable {
            // More categories than the page can collect (a device would be needed).
            return .closed(try await move(consent, to: .failed), clientName: clientName, language: language)
        }
        consent = try await attach(created.challengeId, to: consent)
        return .open(consent, clientName: clientName, language: language, challenge: created, phone: phone)
    }

    /// One factor of the consent's challenge from the page's forms. The last one accepts the
    /// consent; a failure that leaves the user blocked refuses it (`CredentialRefused`).
    /// - Throws: the proof's `Problem` for a wrong or refused factor that does not block.
    package func prove(_ proof: ProofRequest, consentID: String) async throws -> ConsentStep {
        let consent = try await load(consentID)
        guard consent.status.isOpen, let challengeID = consent.challengeID else { return .closed(consent) }
        do {
            // Accepted in the write that completes the challenge; decided again on its own
            // when that write could not take it (the consent changed meanwhile).
            let (response, accepted) = try await challenges.submit(proof, to: challengeID) { tokens in
                await acceptance(of: consent, completing: challengeID, with: tokens.accessToken)
            }
            guard let tokens = response.tokens else { return .moreNeeded }
            if let accepted { return .decided(accepted) }
            return try await accept(consent, completing: challengeID, with: tokens.accessToken)
        } catch let problem as Problem where Self.blocksUser(problem) {
            return .decided(try await move(consent, to: .credentialRefused))
        }
    }

    /// Whether a refused proof leaves the user unable to finish: blocked now, or no attempt left.
    static func blocksUser(_ problem: Problem) -> Bool {
        problem.code == .userLocked
            || ((problem.code == .proofRejected || problem.code == .authenticationFailed) && problem.remainingAttempts == 0)
    }

    /// The one way a consent is accepted, from the page's forms or the phone: `challengeID`
    /// completed with `accessToken` (checked to be the partner's and stored sealed), and it is
    /// still the consent's challenge when the acceptance is written. Of two visits that see the
    /// same completion, one accepts and both are told it was decided.
    /// - Returns: `.closed` when the consent went on without this challenge, or was decided
    ///   otherwise meanwhile.
    func accept(_ consent: ConsentRecord, completing challengeID: String, with accessToken: String) async throws -> ConsentStep {
        guard consent.challengeID == challengeID else { return .closed(consent) }
        let sealed = try await seal(accessToken, for: consent)
        do {
            return .decided(try await move(consent, to: .accepted) { record in
                guard record.challengeID == challengeID else { throw Problem.consentClosed(record.status) }
                record.sealedToken = sealed
            })
        } catch let problem as Problem where problem.code == .consentClosed {
            let current = try await load(consent.id)
            return current.status == .accepted && current.challengeID == challengeID ? .decided(current) : .closed(current)
        }
    }

    /// ``accept(_:completing:with:)`` as the write completing `challengeID` takes it; nil when
    /// the consent cannot take it as read, or the token does not check out (that proof's write
    /// then goes ahead without it, and ``accept(_:completing:with:)`` decides and says why).
    func acceptance(of consent: ConsentRecord, completing challengeID: String, with accessToken: String) async -> ConsentDecision? {
        guard consent.challengeID == challengeID, let sealed = try? await seal(accessToken, for: consent) else { return nil }
        return decision(consent, to: .accepted) { $0.sealedToken = sealed }
    }

    /// The user refused on the page: the phone's request (if any) is withdrawn, the challenge
    /// cancelled, and the consent `CustomerRefused`.
    package func refuse(_ id: String, phoneOperation operationID: String?) async throws -> ConsentStep {
        let consent = try await load(id)
        guard consent.status.isOpen else { return .closed(consent) }
        if let operationID { await withdraw(operationID, of: consent) }
        if let challengeID = consent.challengeID { _ = try? await challenges.cancel(challengeID) }
        return .decided(try await move(consent, to: .customerRefused))
    }

    /// Makes `challengeID` the consent's challenge: `Started` with the first one, replaced after.
    func attach(_ challengeID: String, to consent: ConsentRecord) async throws -> ConsentRecord {
        if consent.status == .created {
            return try await move(consent, to: .started) { $0.challengeID = challengeID }
        }
        return try await replaceChallenge(consent, with: challengeID)
    }

    /// The name of the consent's partner client, as the pages show it.
    package func partnerName(of consent: ConsentRecord) async throws -> String {
        try await store.partnerClient(id: consent.clientID)?.name ?? Self.unnamedPartner
    }

    /// What the pages call a partner client that is gone.
    static let unnamedPartner = "the application"
}
