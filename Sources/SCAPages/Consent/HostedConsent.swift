import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization
import SCAPartners
import SCAStorage

/// The hosted consent page: states the operation as a person reads it, runs a challenge for the
/// consent's user bound to that operation (a payment's transaction goes into the challenge, so
/// the code message names amount and payee and the token carries `txn`), and sends the user
/// back to the partner with `consentId`, `status` and `resourceId`.
struct HostedConsent: Sendable {
    let consents: ConsentService
    /// Codes are sent for the consent's challenge as on every factors page.
    let challenges: ChallengeService
    /// The language the consent's user chose, for the page.
    let users: UserService
    let renderer: PageRenderer
    let cookies: PageCookies
    let runtime: ServerRuntime
    /// "Approve on your phone"; nil leaves the page with its factor forms only.
    var phone: HostedPhoneApproval?

    static func base(_ id: String) -> String { "/consents/\(id)" }

    /// `GET /consents/{id}`: opens the consent (`Started`) and shows it with its factor forms.
    /// A partner may add `?ui_locales=de fr` to the link, as to a sign-in; the visit keeps it.
    func show(_ id: String, request: Request) async throws -> Response {
        var visit = cookies.state(PageCookies.consent, in: request).flatMap { $0.consentID == id ? $0 : nil }
        let query = FormBody.parse(request.uri.query ?? "") ?? [:]
        let uiLocales = query["ui_locales"].flatMap { OAuthService.isLanguageTagList($0) ? $0 : nil } ?? visit?.uiLocales
        visit?.uiLocales = uiLocales
        let outcome: ConsentVisit
        do {
            outcome = try await consents.visit(id, waitingForPhone: phone != nil && visit?.operationID != nil)
        } catch let problem as Problem where problem.code == .consentNotFound {
            return notFound(request)
        }
        switch outcome {
        case .closed(let consent, let clientName, let language):
            return finished(consent, clientName: clientName, words: words(request, visit, consent: consent, stored: language))
        case .waitingForPhone:
            // This visit is waiting for the phone: that page shows where it stands.
            return PageRenderer.redirect(to: HostedPhoneApproval.path(id))
        case .open(let consent, let clientName, let language, let challenge, let device):
            var state = visit ?? PageState(secret: PageCookies.newSecret(runtime), consentID: consent.id, uiLocales: uiLocales)
            let words = words(request, state, consent: consent, stored: language)
            let base = Self.base(consent.id)
            var values = Self.describe(consent, words: words)
            values["lead"] = words.html("consent.lead", ["partner": clientName], strong: ["partner"])
            values["notice"] = state.notice.map(words.text)
            values["error"] = state.error.map(words.text)
            values["progress"] = FactorForms.progress(challenge, words: words)
            values["methods"] = FactorForms.methods(challenge, base: base, state: state, words: words)
            values["passkey"] = FactorForms.passkey(
                challenge, base: base, state: state, label: words.text("consent.passkey.button"))
            if let phone, let device {
                values["phone"] = phone.offer(for: consent, device: device, state: state, words: words)
            }
            values["cancelAction"] = "\(base)/refuse"
            values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(base)/refuse")
            values["cancelLabel"] = words.text("consent.refuseAndReturn", ["partner": clientName])
            state.notice = nil
            state.error = nil
            return renderer.page(
                "factors", title: words.text("consent.title"), values, words: words,
                formTarget: PageRenderer.formTarget(for: consent.redirectURL),
                cookie: try cookies.cookie(PageCookies.consent, state))
        }
    }

    /// The words of the page of `consent`, whose user chose `stored` (read with the consent).
    func words(_ request: Request, _ state: PageState?, consent: ConsentRecord, stored: Language?) -> PageWords {
        renderer.words(for: request, uiLocales: state?.uiLocales, stored: stored, here: Self.base(consent.id))
    }

    func words(_ request: Request, _ state: PageState?, consent: ConsentRecord?) async throws -> PageWords {
        try await Self.words(
            request, state, consent: consent, renderer: renderer, users: users,
            here: consent.map { Self.base($0.id) } ?? state?.consentID.map(Self.base))
    }

    /// The words of a consent page: the switch, the link's `ui_locales`, then the language of
    /// the consent's user (the page is theirs, and its link tells nothing of them that the
    /// page does not show already), then the browser's. The switch comes back to `here`.
    static func words(
        _ request: Request, _ state: PageState?, consent: ConsentRecord?, renderer: PageRenderer, users: UserService,
        here: String?
    ) async throws -> PageWords {
        var stored: Language?
        if let consent { stored = try await users.language(ofUser: consent.userID) }
        return renderer.words(for: request, uiLocales: state?.uiLocales, stored: stored, here: here)
    }

    /// `POST /consents/{id}/send`.
    func send(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(id, request: request, form: form, action: "send") else { return sessionEnded(id, request: request) }
        // While the phone is asked, the consent's challenge is the phone's: no code for it here.
        if state.operationID != nil { return PageRenderer.redirect(to: Self.base(id)) }
        let consent = try await consents.load(id)
        guard consent.status.isOpen, let challengeID = consent.challengeID else { return try await finished(consent, request: request) }
        try await FactorForms.sendCode(form, challengeID: challengeID, with: challenges, into: &state)
        return PageRenderer.redirect(to: Self.base(id), cookie: try cookies.cookie(PageCookies.consent, state))
    }

    /// `POST /consents/{id}/proof`: the last factor accepts the consent.
    func proof(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(id, request: request, form: form, action: "proof") else { return sessionEnded(id, request: request) }
        if state.operationID != nil { return PageRenderer.redirect(to: Self.base(id)) }
        guard let proof = FactorForms.proof(in: form) else {
            state.error = FactorForms.emptyFieldMessage
            return PageRenderer.redirect(to: Self.base(id), cookie: try cookies.cookie(PageCookies.consent, state))
        }
        do {
            switch try await consents.prove(proof, consentID: id) {
            case .decided(let consent): return Self.backToPartner(consent, consents: consents, cookies: cookies)
            case .closed(let consent): return try await finished(consent, request: request)
            case .moreNeeded: state.notice = PageText("factor.oneMoreStep")
            }
        } catch let problem as Problem where problem.status < 500 && problem.code != .consentNotFound {
            state.error = FactorForms.message(for: problem)
        }
        return PageRenderer.redirect(to: Self.base(id), cookie: try cookies.cookie(PageCookies.consent, state))
    }

    /// `POST /consents/{id}/refuse`: `CustomerRefused`, back to the partner.
    func refuse(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard let state = verified(id, request: request, form: form, action: "refuse") else { return sessionEnded(id, request: request) }
        switch try await consents.refuse(id, phoneOperation: phone == nil ? nil : state.operationID) {
        case .decided(let consent): return Self.backToPartner(consent, consents: consents, cookies: cookies)
        case .closed(let consent): return try await finished(consent, request: request)
        case .moreNeeded: return PageRenderer.redirect(to: Self.base(id))  // a refusal is never half done
        }
    }

    /// `303` to the partner's consent redirect with the decided status; the visit ends. The
    /// factor forms and the phone's page both end a decided consent here.
    static func backToPartner(_ consent: ConsentRecord, consents: ConsentService, cookies: PageCookies) -> Response {
        PageRenderer.redirect(
            to: consents.redirect(for: consent), formTarget: PageRenderer.formTarget(for: consent.redirectURL),
            cookie: cookies.clear(PageCookies.consent))
    }

    private func verified(_ id: String, request: Request, form: [String: String], action: String) -> PageState? {
        guard let state = cookies.state(PageCookies.consent, in: request), state.consentID == id,
            PageCookies.checkCSRF(state, action: "\(Self.base(id))/\(action)", presented: form["csrf"])
        else { return nil }
        return state
    }

    /// The operation in words: the headline uses the code message's wording, and the amount
    /// is written as the language writes it, digit for digit the one the proof binds.
    static func describe(_ consent: ConsentRecord, words: PageWords) -> [String: Any] {
        var values: [String: Any] = [:]
        switch consent.operation {
        case .payment:
            if let transaction = consent.transaction { return ApprovalDetails.payment(transaction, words: words) }
        case .beneficiaryAdd:
            if let beneficiary = consent.beneficiary { return ApprovalDetails.beneficiaryAdd(beneficiary, words: words) }
        case .settingsChange:
            // The partner's own words for the change, as it asked: no catalogue can hold them.
            values["headline"] = consent.summary ?? words.text("consent.settingsChange.headline")
            values["hint"] = words.text("consent.hint.change")
        }
        values["details"] = [[String: String]]()
        values["consent"] = true
        return values
    }

    /// What became of a consent that is no longer open, with a way back to its partner, named.
    private func finished(_ consent: ConsentRecord, request: Request) async throws -> Response {
        finished(
            consent, clientName: try await consents.partnerName(of: consent),
            words: try await words(request, cookies.state(PageCookies.consent, in: request), consent: consent))
    }

    private func finished(_ consent: ConsentRecord, clientName: String, words: PageWords) -> Response {
        let outcome = switch consent.status {
        case .accepted, .operationCommitting: "accepted"
        case .customerRefused: "refused"
        case .credentialRefused: "blocked"
        case .expired: "expired"
        case .canceled: "withdrawn"
        case .failed: "failed"
        case .created, .started: "open"
        }
        let heading = words.text("consent.finished.\(outcome).heading")
        let messageKey = "consent.finished.\(outcome).message"
        return renderer.page(
            "finished", title: heading,
            [
                "heading": heading, "message": words.localizer.catalogue.contains(messageKey) ? words.text(messageKey) : "",
                "returnURL": consents.redirect(for: consent),
                "returnLabel": HostedSignIn.returnLabel(clientName, words: words),
            ],
            words: words, formTarget: PageRenderer.formTarget(for: consent.redirectURL),
            cookie: cookies.clear(PageCookies.consent))
    }

    private func notFound(_ request: Request) -> Response {
        let words = renderer.words(for: request, here: nil)
        return renderer.page(
            "error", title: words.text("consent.notFound.title"),
            ["heading": words.text("consent.notFound.heading"), "message": words.text("consent.notFound.message")],
            words: words, status: .notFound)
    }

    /// `403`: the request is well formed, but the browser holds no live visit (cookie) or
    /// the form's CSRF token is not that visit's, so the server refuses it.
    private func sessionEnded(_ id: String, request: Request) -> Response {
        HostedConsent.pageExpired(renderer: renderer, words: renderer.words(for: request, here: Self.base(id)))
    }

    /// The consent pages' `403` (no visit, or a form of another visit).
    static func pageExpired(renderer: PageRenderer, words: PageWords) -> Response {
        renderer.page(
            "error", title: words.text("page.expired.title"),
            ["heading": words.text("page.expired.heading"), "message": words.text("page.expired.message")],
            words: words, status: .forbidden)
    }
}
