import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCAPartners
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
    /// Read by the status long poll only; every decision is the consent service's.
    let operations: OperationService
    /// The language the consent's user chose, for the page.
    let users: UserService
    let renderer: PageRenderer
    let cookies: PageCookies
    let runtime: ServerRuntime

    /// The longest a status request is held open, in seconds (as `GET /v1/operations/pending`).
    static let maximumWait = 25
    /// How often the page without script reloads itself, in seconds.
    static let refreshInterval = 5

    static func path(_ consentID: String) -> String { "\(HostedConsent.base(consentID))/phone" }

    // MARK: The offer on the factors page

    /// The values of the "Approve on your phone" section for the user's `device`
    /// (``ConsentService/approvingPhone(for:among:)``).
    func offer(for consent: ConsentRecord, device: DeviceRecord, state: PageState, words: PageWords) -> [String: Any] {
        let action = Self.path(consent.id)
        return [
            "action": action, "csrf": PageCookies.csrfToken(state, action: action),
            "hint": words.html("phone.offer.hint", ["device": device.name], strong: ["device"]),
        ]
    }

    // MARK: Routes

    /// `POST /consents/{id}/phone`: opens the operation on the user's phone and links its
    /// challenge to the consent; then `303` to the waiting page. When the phone cannot be
    /// asked (no device any more, a policy its two keys cannot meet) the factors page says so.
    func start(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(id, request: request, form: form, action: Self.path(id)) else {
            return sessionEnded(id, request: request)
        }
        let base = HostedConsent.base(id)
        switch try await consents.askPhone(id, withdrawing: state.operationID) {
        case .notPossible:
            return PageRenderer.redirect(to: base)
        case .refused(let problem):
            // An earlier request of this visit (it expired) is withdrawn already.
            state.operationID = nil
            state.error = problem.code == .operationNoDevice
                ? PageText("phone.error.noDevice") : FactorForms.message(for: problem)
            return PageRenderer.redirect(to: base, cookie: try cookies.cookie(PageCookies.consent, state))
        case .asked(let operation):
            state.operationID = operation.id
            return PageRenderer.redirect(to: Self.path(id), cookie: try cookies.cookie(PageCookies.consent, state))
        }
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
        let approval = try await consents.phoneApproval(of: id, operationID: operationID)
        let consent: ConsentRecord? = switch approval {
        case .waiting(let consent, _, _, _), .notMe(let consent, _), .ended(let consent, _, _): consent
        case .gone, .accepted: nil
        }
        let words = try await HostedConsent.words(
            request, state, consent: consent, renderer: renderer, users: users, here: Self.path(id))
        switch approval {
        case .gone:
            return forget(&state, then: base)
        case .waiting(let consent, let operation, let clientName, let deviceName):
            return try waiting(
                consent, operation: operation, clientName: clientName, deviceName: deviceName, state: state, words: words)
        case .accepted(let consent):
            return HostedConsent.backToPartner(consent, consents: consents, cookies: cookies)
        case .notMe(let refused, let clientName):
            // The account holder says they did not ask for it: refused, and no other way offered.
            let what = refused.operation == .payment ? "payment" : "change"
            return result(
                refused, clientName: clientName, state: &state, words: words, heading: "phone.result.declined.heading",
                message: words.text("phone.result.notMe.\(what)", ["partner": clientName]),
                tone: "error", returnToPartner: true)
        case .ended(let consent, .expired, let clientName):
            return result(
                consent, clientName: clientName, state: &state, words: words, heading: "phone.result.expired.heading",
                message: words.text("phone.result.expired.message"), tone: "phone-note", retry: true)
        case .ended(let consent, .failed, let clientName):
            return result(
                consent, clientName: clientName, state: &state, words: words, heading: "phone.result.failed.heading",
                message: words.text("phone.result.failed.message"), tone: "error")
        case .ended(let consent, _, let clientName):
            return result(
                consent, clientName: clientName, state: &state, words: words, heading: "phone.result.declined.heading",
                message: words.text("phone.result.declined.message"), tone: "error")
        }
    }

    /// `POST /consents/{id}/phone/status`: `{"status": …, "next": …}` once the operation is no
    /// longer pending, or after `wait` seconds (form field, 0 to ``maximumWait``, default the
    /// most) still pending, or at once with `pending` when the server is stopping (the page asks
    /// again).
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
        let decided = try await runtime.hold(upTo: wait) {
            let operation = try await operations.load(operationID)
            return operation.status == .pending ? nil : operation.status
        }
        return try Response.json(PhoneApprovalStatus(status: (decided ?? .pending).rawValue, next: next))
    }

    /// `POST /consents/{id}/phone/cancel`: the user picked another way; the operation is
    /// canceled (the phone no longer lists it) and the factors page opens again.
    func cancel(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(id, request: request, form: form, action: "\(Self.path(id))/cancel") else {
            return sessionEnded(id, request: request)
        }
        if let operationID = state.operationID {
            await consents.withdraw(operationID, of: try await consents.load(id))
        }
        return forget(&state, then: HostedConsent.base(id))
    }

    // MARK: Pages

    private func waiting(
        _ consent: ConsentRecord, operation: OperationRecord, clientName: String, deviceName: String, state: PageState,
        words: PageWords
    ) throws -> Response {
        let path = Self.path(consent.id)
        var values = HostedConsent.describe(consent, words: words)
        values["lead"] = words.html("consent.lead", ["partner": clientName], strong: ["partner"])
        let what = consent.operation == .payment ? "payment" : "change"
        values["instructions"] = words.html("phone.wait.instructions.\(what)", ["device": deviceName], strong: ["device"])
        if let binding = operation.bindingMessage {
            values["compare"] = words.html("phone.wait.compare", ["message": binding], strong: ["message"])
        }
        let minutes = max(1, Int((operation.expiresAt.timeIntervalSince(runtime.now()) / 60).rounded(.up)))
        values["openFor"] = words.text("phone.wait.openFor", count: minutes)
        values["refreshNote"] = words.text("phone.wait.refreshNote", count: Self.refreshInterval)
        values["refuseLabel"] = words.text("consent.refuseAndReturn", ["partner": clientName])
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
            "phone-wait", title: words.text("phone.wait.title"), values, words: words, formTarget: PageRenderer.formTarget(for: consent.redirectURL),
            cookie: try cookies.cookie(PageCookies.consent, state))
        // This page alone asks its own origin for the status (fetch needs connect-src).
        if let policy = response.headers[.contentSecurityPolicy] {
            response.headers[.contentSecurityPolicy] = policy.replacingOccurrences(
                of: "default-src 'none';", with: "default-src 'none'; connect-src 'self';")
        }
        return response
    }

    /// The page after the phone said no, or did not answer: what happened and the ways on.
    /// - Parameters:
    ///   - returnToPartner: the consent is closed; the only way on is back to the partner.
    ///   - retry: offer to ask the phone again.
    /// - Parameter heading: the heading's catalogue key.
    private func result(
        _ consent: ConsentRecord, clientName: String, state: inout PageState, words: PageWords, heading: String,
        message: String, tone: String, returnToPartner: Bool = false, retry: Bool = false
    ) -> Response {
        state.operationID = nil
        let base = HostedConsent.base(consent.id)
        let title = words.text(heading)
        var values: [String: Any] = [
            "heading": title, "message": message, "tone": tone,
            "refuseLabel": words.text("consent.refuseAndReturn", ["partner": clientName]),
        ]
        if returnToPartner {
            values["returnURL"] = consents.redirect(for: consent)
            values["returnLabel"] = HostedSignIn.returnLabel(clientName, words: words)
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
            "phone-result", title: title, values, words: words, formTarget: PageRenderer.formTarget(for: consent.redirectURL),
            cookie: cookie)
    }

    // MARK: Helpers

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

    /// `403`: the request is well formed, but the browser holds no live visit (cookie) or
    /// the form's CSRF token is not that visit's, so the server refuses it.
    private func sessionEnded(_ id: String, request: Request) -> Response {
        HostedConsent.pageExpired(renderer: renderer, words: renderer.words(for: request, here: HostedConsent.base(id)))
    }
}
