import Foundation
import Hummingbird
import SCACore
import SCAStorage

/// "Approve on your phone" on the hosted consent page: the consent's SCA done by
/// the user's bound phone instead of the page's factor forms.
///
/// Choosing it opens a decoupled operation for the consent's user bound to exactly the
/// consent's operation and transaction, and makes that operation's challenge the consent's
/// challenge: the phone's device-key and biometric-key proofs complete the consent's own SCA
/// through ``ChallengeService``, so the token is the one a factor approval would give (scoped
/// to the consent's transaction, stored once). The page then waits: with script, one long poll
/// at a time on `POST /consents/{id}/phone/status`; without, a refresh every
/// ``refreshInterval`` seconds. Once approved it accepts the consent and sends the user back
/// to the partner as `/consents/{id}/proof` does.
struct HostedPhoneApproval: Sendable {
    let consents: ConsentService
    let operations: OperationService
    let store: any SCAStore
    let renderer: PageRenderer
    let cookies: PageCookies
    let runtime: ServerRuntime

    /// The longest a status request is held open, in seconds (as `GET /v1/operations/pending`).
    static let maximumWait = 25
    /// How often the page without script reloads itself, in seconds.
    static let refreshInterval = 5

    static func path(_ consentID: String) -> String { "\(HostedConsent.base(consentID))/phone" }

    /// Whether a phone can show and approve the consent's operation: a payment (amount, payee
    /// and IBAN on the phone) or a settings change. Adding a beneficiary is not an operation a
    /// phone is asked to approve.
    static func supports(_ consent: ConsentRecord) -> Bool {
        consent.operation == .payment || consent.operation == .settingsChange
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

    // MARK: The offer on the factors page

    /// The values of the "Approve on your phone" section, or nil when the consent's user has
    /// no active device with a biometric key or the operation is not one for a phone.
    func offer(for consent: ConsentRecord, state: PageState) async throws -> [String: Any]? {
        guard Self.supports(consent), let device = try await operations.approvingDevice(userID: consent.userID) else {
            return nil
        }
        let action = Self.path(consent.id)
        return ["action": action, "csrf": PageCookies.csrfToken(state, action: action), "deviceName": device.name]
    }

    // MARK: Routes

    /// `POST /consents/{id}/phone`: opens the operation on the user's phone and links its
    /// challenge to the consent; then `303` to the waiting page. When the phone cannot be
    /// asked (no device any more, a policy its two keys cannot meet) the factors page says so.
    func start(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(id, request: request, form: form, action: Self.path(id)) else { return sessionEnded() }
        let consent = try await consents.load(id)
        let base = HostedConsent.base(id)
        guard consent.status.isOpen, Self.supports(consent) else { return PageRenderer.redirect(to: base) }
        if let previous = state.operationID {
            // Asked again (the last one expired): the earlier one is withdrawn first.
            await withdraw(previous, of: consent)
            state.operationID = nil
        }
        let remaining = Int(consent.expiresAt.timeIntervalSince(runtime.now()).rounded(.down))
        let lifetime = min(OperationService.defaultLifetime, remaining)
        guard lifetime >= 1 else { return PageRenderer.redirect(to: base) }
        let clientName = try await partnerName(consent)
        let operation: OperationRecord
        do {
            operation = try await operations.open(
                userID: consent.userID, operation: consent.operation.operation, transaction: consent.transaction,
                bindingMessage: Self.bindingMessage(clientName: clientName, code: Self.comparisonCode(runtime)),
                lifetime: lifetime, delegation: consents.delegation(for: consent, clientName: clientName),
                // The browser's own challenge budget: a page that asks again and again is
                // limited like any caller of POST /v1/challenges from that address.
                admitted: false)
        } catch let problem as Problem where problem.status < 500 {
            state.error = problem.code == .operationNoDevice
                ? "Your phone cannot approve this one. Please confirm it here instead."
                : FactorForms.message(for: problem)
            return PageRenderer.redirect(to: base, cookie: try cookies.cookie(PageCookies.consent, state))
        }
        do {
            // From here the consent's SCA is the operation's challenge: the phone completes it.
            let previousChallenge = consent.challengeID
            if consent.status == .created {
                _ = try await consents.move(consent, to: .started) { $0.challengeID = operation.challengeID }
            } else {
                _ = try await consents.replaceChallenge(consent, with: operation.challengeID)
            }
            if let previousChallenge { _ = try? await operations.challenges.cancel(previousChallenge) }
        } catch {
            _ = try? await operations.cancel(operation.id, by: .partner(clientID: consent.clientID))
            throw error
        }
        state.operationID = operation.id
        return PageRenderer.redirect(to: Self.path(id), cookie: try cookies.cookie(PageCookies.consent, state))
    }

    /// `GET /consents/{id}/phone`: the waiting page while the phone has not answered; once it
    /// has, the consent accepted and `303` back to the partner, or what became of the request
    /// (declined, expired, failed) with the ways on from there. A malformed id is not found,
    /// as on every consent route, rather than sent on to a page that cannot exist.
    func show(_ id: String, request: Request) async throws -> Response {
        guard InputRules.isWellFormedID(id, prefix: "cst") else { throw Problem.consentNotFound }
        let base = HostedConsent.base(id)
        guard var state = cookies.state(PageCookies.consent, in: request), state.consentID == id,
            let operationID = state.operationID
        else { return PageRenderer.redirect(to: base) }
        let consent = try await consents.load(id)
        guard let operation = try? await operations.load(operationID), operation.userID == consent.userID else {
            return forget(&state, then: base)
        }
        guard consent.status.isOpen else {
            await withdraw(operationID, of: consent)
            return forget(&state, then: base)
        }
        let clientName = try await partnerName(consent)
        switch operation.status {
        case .pending:
            guard consent.challengeID == operation.challengeID else {
                // The consent went on without the phone (another visit started over).
                await withdraw(operationID, of: consent)
                return forget(&state, then: base)
            }
            return try await waiting(consent, operation: operation, clientName: clientName, state: state)
        case .approved:
            return try await accept(consent, operation: operation, state: &state)
        case .rejected where operation.rejectReason == .notMe:
            // The account holder says they did not ask for it: refused, and no other way offered.
            let refused = try await consents.move(consent, to: .customerRefused)
            let (what, outcome) = consent.operation == .payment ? ("payment", "nothing was paid") : ("change", "nothing was changed")
            return result(
                refused, clientName: clientName, state: &state, heading: "Declined on your phone",
                message: "You told us on your phone that you did not ask for this \(what), so it was declined and \(outcome). "
                    + "\(clientName) is told you refused it.",
                tone: "error", returnToPartner: true)
        case .rejected:
            return result(
                consent, clientName: clientName, state: &state, heading: "Declined on your phone",
                message: "You declined this on your phone, so nothing was approved.", tone: "error")
        case .expired:
            return result(
                consent, clientName: clientName, state: &state, heading: "Your phone did not answer in time",
                message: "The request to your phone expired, so nothing was approved. You can send it again or confirm here.",
                tone: "phone-note", retry: true)
        case .failed:
            return result(
                consent, clientName: clientName, state: &state, heading: "Not approved on your phone",
                message: "We could not confirm it was you on your phone, so nothing was approved.", tone: "error")
        case .canceled:
            return forget(&state, then: base)
        }
    }

    /// `POST /consents/{id}/phone/status`: `{"status": …, "next": …}` once the operation is no
    /// longer pending, or after `wait` seconds (form field, 0 to ``maximumWait``, default the
    /// most) still pending. It looks every second, so an answer on another instance is seen.
    /// - Throws: 403 `auth.forbidden` without the page's cookie and CSRF token (as the pages'
    ///   expired page), 400 `request.invalid` with a bad `wait`.
    func status(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        let action = "\(Self.path(id))/status"
        guard let state = verified(id, request: request, form: form, action: action), let operationID = state.operationID
        else { throw Problem(status: 403, code: .forbidden, title: "Forbidden", detail: "the page has expired: open it again") }
        guard let wait = Int(form["wait"] ?? String(Self.maximumWait)), (0...Self.maximumWait).contains(wait) else {
            throw Problem.invalidRequest("wait must be 0 to \(Self.maximumWait) seconds")
        }
        let next = Self.path(id)
        let consent = try await consents.load(id)
        guard consent.status.isOpen else { return try Response.json(PhoneApprovalStatus(status: "closed", next: next)) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(wait))
        while true {
            let operation = try await operations.load(operationID)
            if operation.status != .pending || clock.now >= deadline {
                return try Response.json(PhoneApprovalStatus(status: operation.status.rawValue, next: next))
            }
            try await Task.sleep(for: min(.seconds(1), deadline - clock.now))
        }
    }

    /// `POST /consents/{id}/phone/cancel`: the user picked another way; the operation is
    /// canceled (the phone no longer lists it) and the factors page opens again.
    func cancel(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(id, request: request, form: form, action: "\(Self.path(id))/cancel") else {
            return sessionEnded()
        }
        if let operationID = state.operationID {
            let consent = try await consents.load(id)
            await withdraw(operationID, of: consent)
        }
        return forget(&state, then: HostedConsent.base(id))
    }

    // MARK: Pages

    private func waiting(
        _ consent: ConsentRecord, operation: OperationRecord, clientName: String, state: PageState
    ) async throws -> Response {
        let path = Self.path(consent.id)
        var values = HostedConsent.describe(consent)
        values["clientName"] = clientName
        values["deviceName"] = try await store.device(id: operation.deviceID)?.name ?? "your phone"
        values["bindingMessage"] = operation.bindingMessage
        let minutes = max(1, Int((operation.expiresAt.timeIntervalSince(runtime.now()) / 60).rounded(.up)))
        values["expiresIn"] = minutes == 1 ? "1 minute" : "\(minutes) minutes"
        values["statusAction"] = "\(path)/status"
        values["statusCsrf"] = PageCookies.csrfToken(state, action: "\(path)/status")
        values["next"] = path
        values["refresh"] = Self.refreshInterval
        values["cancelAction"] = "\(path)/cancel"
        values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(path)/cancel")
        let refuse = "\(HostedConsent.base(consent.id))/refuse"
        values["refuseAction"] = refuse
        values["refuseCsrf"] = PageCookies.csrfToken(state, action: refuse)
        var response = renderer.page(
            "phone-wait", title: "Approve on your phone", values, formTarget: PageRenderer.formTarget(for: consent.redirectURL),
            cookie: try cookies.cookie(PageCookies.consent, state))
        // This page alone asks its own origin for the status (fetch needs connect-src).
        if let policy = response.headers[.contentSecurityPolicy] {
            response.headers[.contentSecurityPolicy] = policy.replacingOccurrences(
                of: "default-src 'none';", with: "default-src 'none'; connect-src 'self';")
        }
        return response
    }

    /// The phone approved: the consent takes the operation's token (sealed for the consent)
    /// if its challenge is still the operation's, and the user goes back to the partner. Of
    /// two visits that see the approval, one accepts and both send the user back.
    private func accept(_ consent: ConsentRecord, operation: OperationRecord, state: inout PageState) async throws -> Response {
        let target = PageRenderer.formTarget(for: consent.redirectURL)
        guard consent.challengeID == operation.challengeID, let token = try operations.describe(operation).accessToken else {
            return forget(&state, then: HostedConsent.base(consent.id))
        }
        let sealed = try await consents.seal(token, for: consent)
        let challengeID = operation.challengeID
        do {
            let accepted = try await consents.move(consent, to: .accepted) { record in
                guard record.challengeID == challengeID else { throw Problem.consentClosed(record.status) }
                record.sealedToken = sealed
            }
            return PageRenderer.redirect(
                to: consents.redirect(for: accepted), formTarget: target, cookie: cookies.clear(PageCookies.consent))
        } catch let problem as Problem where problem.code == .consentClosed {
            let current = try await consents.load(consent.id)
            guard current.status == .accepted, current.challengeID == challengeID else {
                return forget(&state, then: HostedConsent.base(consent.id))
            }
            return PageRenderer.redirect(
                to: consents.redirect(for: current), formTarget: target, cookie: cookies.clear(PageCookies.consent))
        }
    }

    /// The page after the phone said no, or did not answer: what happened and the ways on.
    /// - Parameters:
    ///   - returnToPartner: the consent is closed; the only way on is back to the partner.
    ///   - retry: offer to ask the phone again.
    private func result(
        _ consent: ConsentRecord, clientName: String, state: inout PageState, heading: String, message: String,
        tone: String, returnToPartner: Bool = false, retry: Bool = false
    ) -> Response {
        state.operationID = nil
        let base = HostedConsent.base(consent.id)
        var values: [String: Any] = ["heading": heading, "message": message, "tone": tone, "clientName": clientName]
        if returnToPartner {
            values["returnURL"] = consents.redirect(for: consent)
        } else {
            if retry {
                values["retryAction"] = Self.path(consent.id)
                values["retryCsrf"] = PageCookies.csrfToken(state, action: Self.path(consent.id))
            }
            values["otherURL"] = base
            values["refuseAction"] = "\(base)/refuse"
            values["refuseCsrf"] = PageCookies.csrfToken(state, action: "\(base)/refuse")
        }
        let cookie = returnToPartner ? cookies.clear(PageCookies.consent) : try? cookies.cookie(PageCookies.consent, state)
        return renderer.page(
            "phone-result", title: heading, values, formTarget: PageRenderer.formTarget(for: consent.redirectURL),
            cookie: cookie)
    }

    // MARK: Helpers

    /// Cancels the operation if it is still pending (best effort: it may have just ended).
    private func withdraw(_ operationID: String, of consent: ConsentRecord) async {
        _ = try? await operations.cancel(operationID, by: .partner(clientID: consent.clientID))
    }

    /// Drops the operation from the visit and sends the browser to `location`.
    private func forget(_ state: inout PageState, then location: String) -> Response {
        state.operationID = nil
        return PageRenderer.redirect(to: location, cookie: try? cookies.cookie(PageCookies.consent, state))
    }

    private func verified(_ id: String, request: Request, form: [String: String], action: String) -> PageState? {
        guard let state = cookies.state(PageCookies.consent, in: request), state.consentID == id,
            PageCookies.checkCSRF(state, action: action, presented: form["csrf"])
        else { return nil }
        return state
    }

    private func partnerName(_ consent: ConsentRecord) async throws -> String {
        try await store.partnerClient(id: consent.clientID)?.name ?? "the application"
    }

    /// `403`: the request is well formed, but the browser holds no live visit (cookie) or
    /// the form's CSRF token is not that visit's, so the server refuses it.
    private func sessionEnded() -> Response {
        renderer.page(
            "error", title: "Page expired",
            ["heading": "This page has expired", "message": "Please open the link from the application again."],
            status: .forbidden)
    }
}
