import Foundation
import SCACore
import SCAStorage

/// The budgets that hold across challenges and server instances: codes sent per destination,
/// per user, per client address and in all, and challenges opened per client address (the
/// defaults and their reasons are on `RateLimits`). Each admission is one atomic step in the
/// store (`consumeRateBudgets`): every budget has room and one use is counted in each, or
/// nothing is counted and the caller gets `429 rate.limited` with `Retry-After`.
///
/// Budgets are named by keyed hashes (HMAC under a subkey of the server key, the same on every
/// instance), never by a phone number, address or client address in clear. A decoy challenge
/// draws from the same budgets, keyed by what was typed, so where a limit bites says nothing
/// about whether the user exists.
struct RateLimiter: EngineService, Sendable {
    let context: EngineContext
    let limits: RateLimits

    /// Whose budgets a send draws from, as keyed hashes.
    struct SendSubjects: Sendable, Equatable {
        var user: String
        var destination: String
    }

    /// The keyed hash that names a budget's subject: base64url of an HMAC of `text`.
    func subject(_ text: String) -> String {
        Base64URL.encode(box.mac(Array(text.utf8), purpose: "rate-subject"))
    }

    /// Counts one challenge opened from the request's client address. (Outside a request, or
    /// when the address is unknown, there is no client to limit.)
    /// - Throws: `Problem.rateLimited` when the address has opened too many.
    func admitChallenge() async throws {
        guard let client = RequestInfo.current?.clientAddress else { return }
        let budgets = Self.budgets(limits.challengesPerClient, action: .challenge, scope: .client, subject: subject("client|\(client)"))
        try await admit(budgets, action: .challenge)
    }

    /// Counts one operation created by `caller` (`client:<id>`, or the admin key's audit
    /// actor). Its challenge is then opened without ``admitChallenge()``.
    /// - Throws: `Problem.rateLimited` when the caller has created too many.
    func admitOperation(by caller: String) async throws {
        let budgets = Self.budgets(limits.operationsPerCaller, action: .operation, scope: .caller, subject: subject("caller|\(caller)"))
        try await admit(budgets, action: .operation)
    }

    /// Counts one code about to be sent.
    /// - Throws: `Problem.rateLimited` when any budget is spent; nothing is counted then.
    func admitSend(
        _ channel: OutboundMessage.Channel, to subjects: SendSubjects, userID: String?, challengeID: String?
    ) async throws {
        var budgets = Self.budgets(limits.sendsPerDestination, action: .send, scope: .destination, subject: subjects.destination)
        budgets += Self.budgets(limits.sendsPerUser, action: .send, scope: .user, subject: subjects.user)
        if let client = RequestInfo.current?.clientAddress {
            budgets += Self.budgets(limits.sendsPerClient, action: .send, scope: .client, subject: subject("client|\(client)"))
        }
        budgets += Self.budgets(limits.sendsGlobal, action: .send, scope: .global, subject: "all")
        try await admit(budgets, action: .send, userID: userID, challengeID: challengeID, channel: channel)
    }

    private func admit(
        _ budgets: [RateBudget], action: RateRefusal.Action, userID: String? = nil, challengeID: String? = nil,
        channel: OutboundMessage.Channel? = nil
    ) async throws {
        guard !budgets.isEmpty else { return }
        guard case .refused(let scopes, let retryAfter) = try await store.consumeRateBudgets(budgets, now: runtime.now()) else {
            return
        }
        // Which budgets, never whose: the subject is a keyed hash and stays out of the trail.
        // Every budget here was made from a `RateBudgetScope`, so each scope reads back.
        let refusal = RateRefusal(action: action, scopes: scopes.compactMap(RateBudgetScope.init(rawValue:)))
        await audit.record(
            .rateLimited, outcome: "refused", userID: userID, challengeID: challengeID, channel: channel, refusal: refusal,
            details: ["retryAfter": String(retryAfter)])
        throw Problem.rateLimited(retryAfter: retryAfter)
    }

    /// One budget per window: `send.destination.600:<subject>`.
    static func budgets(
        _ windows: [RateWindow], action: RateRefusal.Action, scope: RateBudgetScope, subject: String
    ) -> [RateBudget] {
        windows.map {
            RateBudget(
                key: "\(action.rawValue).\(scope.rawValue).\($0.seconds):\(subject)", scope: scope.rawValue, limit: $0.count,
                window: TimeInterval($0.seconds))
        }
    }
}
