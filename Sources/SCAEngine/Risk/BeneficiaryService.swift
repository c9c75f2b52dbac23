import Foundation
import SCACore
import SCAStorage

/// A user's trusted beneficiaries (RTS art. 13). Adding one needs the token of a completed
/// `beneficiary_add` challenge, bound to that payee and used once; listing and removing need
/// only a signed-in session, since removing takes trust away.
struct BeneficiaryService: EngineService, Sendable {
    let context: EngineContext
    let tokens: TokenService

    /// The payee as a `beneficiary_add` challenge binds it (name in NFC, IBAN compact).
    /// - Throws: `Problem.invalidRequest`.
    static func normalizedPayee(name: String, iban: String?) throws -> Transaction.Payee {
        guard let iban else { throw Problem.invalidRequest("beneficiary.iban is required") }
        let probe = Transaction(amount: "1.00", currency: "EUR", payee: .init(name: name, iban: iban))
        switch TransactionRules.normalized(probe) {
        case .success(let normalized): return normalized.payee
        case .failure(let violation): throw Problem.invalidRequest("beneficiary: \(violation.reason.replacingOccurrences(of: "payee.", with: ""))")
        }
    }

    /// - Throws: `Problem` 400, 401, 403 `auth.forbidden` (another operation, or a token bound
    ///   to another payee), 409 `beneficiary.limit_reached`.
    func add(_ request: AddBeneficiaryRequest, authorization: String?) async throws -> BeneficiaryResponse {
        let payee = try Self.normalizedPayee(name: request.name, iban: request.iban)
        let claims: AccessTokenClaims
        do {
            // The user's own app, or the partner the user approved this very addition for: the
            // token is bound to the payee (checked next) and serves once.
            claims = try await tokens.authorize(authorization, for: [.beneficiaryAdd], at: .boundOperation, consume: false)
        } catch let problem as Problem where problem.code == .forbidden {
            var named = problem
            named.detail = "Adding a trusted beneficiary needs the token of a completed beneficiary_add challenge."
            throw named
        }
        guard claims.txn == payee.digest else {
            var problem = Problem.forbidden
            problem.detail = "The token was issued for another payee."
            throw problem
        }
        try await tokens.consume(claims)
        let userID = claims.sub.value
        let candidate = TrustedBeneficiary(
            id: runtime.makeID(prefix: "ben"), name: payee.name, iban: payee.iban ?? "", addedAt: runtime.now())
        guard let added = try await store.updateRiskState(key: RiskState.keyPrefix + userID, as: RiskState.self, {
            $0.addBeneficiary(candidate)
        }) else { throw Problem.beneficiaryLimitReached }
        await audit.record(
            .beneficiaryAdded, userID: userID, sessionID: claims.sid, operation: .beneficiaryAdd,
            details: ["beneficiary": added.id, "iban": TransactionRules.maskedIBAN(added.iban)])
        return Self.describe(added)
    }

    func list(authorization: String?) async throws -> [BeneficiaryResponse] {
        let claims = try await tokens.authorize(authorization, for: [.login, .accountInfo, .settingsChange], consume: false)
        let state = try await store.riskState(key: RiskState.keyPrefix + claims.sub.value, as: RiskState.self)
        return state.beneficiaries.map(Self.describe)
    }

    /// - Throws: `Problem.beneficiaryNotFound` (also for another user's beneficiary).
    func remove(_ beneficiaryID: String, authorization: String?) async throws -> BeneficiaryResponse {
        let claims = try await tokens.authorize(authorization, for: [.login, .settingsChange], consume: false)
        return try await remove(beneficiaryID, of: claims.sub.value, sessionID: claims.sid)
    }

    /// Stops `userID` trusting a payee, as asked from session `sessionID`.
    /// - Throws: `Problem.beneficiaryNotFound` (also for another user's beneficiary).
    package func remove(_ beneficiaryID: String, of userID: String, sessionID: String) async throws -> BeneficiaryResponse {
        guard InputRules.isWellFormedID(beneficiaryID, prefix: "ben") else { throw Problem.beneficiaryNotFound }
        guard let removed = try await store.updateRiskState(key: RiskState.keyPrefix + userID, as: RiskState.self, {
            $0.removeBeneficiary(id: beneficiaryID)
        }) else { throw Problem.beneficiaryNotFound }
        await audit.record(
            .beneficiaryRemoved, userID: userID, sessionID: sessionID,
            details: ["beneficiary": removed.id, "iban": TransactionRules.maskedIBAN(removed.iban)])
        return Self.describe(removed)
    }

    static func describe(_ beneficiary: TrustedBeneficiary) -> BeneficiaryResponse {
        BeneficiaryResponse(
            beneficiaryId: beneficiary.id, name: beneficiary.name, iban: TransactionRules.maskedIBAN(beneficiary.iban),
            addedAt: beneficiary.addedAt)
    }
}
