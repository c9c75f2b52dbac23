import Foundation
import Hummingbird
import SCACore
import SCAEngine
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
    let renderer: PageRenderer
    let cookies: PageCookies
    let runtime: ServerRuntime
    /// "Approve on your phone"; nil leaves the page with its factor forms only.
    var phone: HostedPhoneApproval?

    static func base(_ id: String) -> String { "/consents/\(id)" }

    /// `GET /consents/{id}`: opens the consent (`Started`) and shows it with its factor forms.
    func show(_ id: String, request: Request) async throws -> Response {
        let visit = cookies.state(PageCookies.consent, in: request).flatMap { $0.consentID == id ? $0 : nil }
        let outcome: ConsentVisit
        do {
            outcome = try await consents.visit(id, waitingForPhone: phone != nil && visit?.operationID != nil)
        } catch let problem as Problem where problem.code == .consentNotFound {
            return notFound()
        }
        switch outcome {
        case .closed(let consent, let clientName):
            return finished(consent, clientName: clientName)
        case .waitingForPhone:
            // This visit is waiting for the phone: that page shows where it stands.
            return PageRenderer.redirect(to: HostedPhoneApproval.path(id))
        case .open(let consent, let clientName, let challenge, let device):
            var state = visit ?? PageState(secret: PageCookies.newSecret(runtime), consentID: consent.id)
            let base = Self.base(consent.id)
            var values = Self.describe(consent)
            values["clientName"] = clientName
            values["notice"] = state.notice
            values["error"] = state.error
            values["progress"] = FactorForms.progress(challenge)
            values["methods"] = FactorForms.methods(challenge, base: base, state: state)
            values["passkey"] = FactorForms.passkey(challenge, base: base, state: state, label: "Confirm with a passkey")
            if let phone, let device { values["phone"] = phone.offer(for: consent, device: device, state: state) }
            values["cancelAction"] = "\(base)/refuse"
            values["cancelCsrf"] = PageCookies.csrfToken(state, action: "\(base)/refuse")
            values["cancelLabel"] = "Refuse and return to \(clientName)"
            state.notice = nil
            state.error = nil
            return renderer.page(
                "factors", title: "Approve", values, formTarget: PageRenderer.formTarget(for: consent.redirectURL),
                cookie: try cookies.cookie(PageCookies.consent, state))
        }
    }

    /// `POST /consents/{id}/send`.
    func send(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(id, request: request, form: form, action: "send") else { return sessionEnded(id) }
        // While the phone is asked, the consent's challenge is the phone's: no code for it here.
        if state.operationID != nil { return PageRenderer.redirect(to: Self.base(id)) }
        let consent = try await consents.load(id)
        guard consent.status.isOpen, let challengeID = consent.challengeID else { return try await finished(consent) }
        try await FactorForms.sendCode(form, challengeID: challengeID, with: challenges, into: &state)
        return PageRenderer.redirect(to: Self.base(id), cookie: try cookies.cookie(PageCookies.consent, state))
    }

    /// `POST /consents/{id}/proof`: the last factor accepts the consent.
    func proof(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard var state = verified(id, request: request, form: form, action: "proof") else { return sessionEnded(id) }
        if state.operationID != nil { return PageRenderer.redirect(to: Self.base(id)) }
        guard let proof = FactorForms.proof(in: form) else {
            state.error = FactorForms.emptyFieldMessage
            return PageRenderer.redirect(to: Self.base(id), cookie: try cookies.cookie(PageCookies.consent, state))
        }
        do {
            switch try await consents.prove(proof, consentID: id) {
            case .decided(let consent): return Self.backToPartner(consent, consents: consents, cookies: cookies)
            case .closed(let consent): return try await finished(consent)
            case .moreNeeded: state.notice = "Thank you. One more step."
            }
        } catch let problem as Problem where problem.status < 500 && problem.code != .consentNotFound {
            state.error = FactorForms.message(for: problem)
        }
        return PageRenderer.redirect(to: Self.base(id), cookie: try cookies.cookie(PageCookies.consent, state))
    }

    /// `POST /consents/{id}/refuse`: `CustomerRefused`, back to the partner.
    func refuse(_ id: String, request: Request, form: [String: String]) async throws -> Response {
        guard let state = verified(id, request: request, form: form, action: "refuse") else { return sessionEnded(id) }
        switch try await consents.refuse(id, phoneOperation: phone == nil ? nil : state.operationID) {
        case .decided(let consent): return Self.backToPartner(consent, consents: consents, cookies: cookies)
        case .closed(let consent): return try await finished(consent)
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

    /// The operation in words: the headline uses the code message's wording.
    static func describe(_ consent: ConsentRecord) -> [String: Any] {
        var details: [[String: String]] = []
        var values: [String: Any] = [:]
        switch consent.operation {
        case .payment:
            if let transaction = consent.transaction {
                let words = OperationWording.payment(transaction)
                values["headline"] = words.prefix(1).uppercased() + words.dropFirst()
                values["what"] = "amount and payee"
                details.append([
                    "label": "Amount", "value": OperationWording.amount(transaction.amount, currency: transaction.currency),
                    "style": "amount",
                ])
                details.append(["label": "Payee", "value": transaction.payee.name, "style": ""])
                if let iban = transaction.payee.iban {
                    details.append(["label": "IBAN", "value": OperationWording.groupedIBAN(iban), "style": "iban"])
                }
                if let reference = transaction.reference {
                    details.append(["label": "Reference", "value": reference, "style": ""])
                }
            }
        case .beneficiaryAdd:
            if let beneficiary = consent.beneficiary {
                values["headline"] = "Add \(beneficiary.name) as a beneficiary"
                values["what"] = "change"
                details.append(["label": "Name", "value": beneficiary.name, "style": ""])
                details.append(["label": "IBAN", "value": OperationWording.groupedIBAN(beneficiary.iban), "style": "iban"])
            }
        case .settingsChange:
            values["headline"] = consent.summary ?? "Change your settings"
            values["what"] = "change"
        }
        values["details"] = details
        values["consent"] = true
        return values
    }

    /// What became of a consent that is no longer open, with a way back to its partner, named.
    private func finished(_ consent: ConsentRecord) async throws -> Response {
        finished(consent, clientName: try await consents.partnerName(of: consent))
    }

    private func finished(_ consent: ConsentRecord, clientName: String) -> Response {
        let (heading, message): (String, String) = switch consent.status {
        case .accepted, .operationCommitting: ("Already approved", "You approved this already.")
        case .customerRefused: ("Refused", "You refused this request.")
        case .credentialRefused:
            ("Access blocked", "We could not confirm it is you, so nothing was approved. Your access may be blocked for now.")
        case .expired: ("This request has expired", "It was not approved in time, so nothing was approved.")
        case .canceled: ("This request was withdrawn", "The application withdrew it; nothing was approved.")
        case .failed: ("Not completed", "This operation could not be approved here; nothing was approved.")
        case .created, .started: ("Open", "")
        }
        return renderer.page(
            "finished", title: heading,
            [
                "heading": heading, "message": message, "returnURL": consents.redirect(for: consent),
                "clientName": clientName,
            ],
            formTarget: PageRenderer.formTarget(for: consent.redirectURL), cookie: cookies.clear(PageCookies.consent))
    }

    private func notFound() -> Response {
        renderer.page(
            "error", title: "Not found",
            ["heading": "Request not found", "message": "This link is not valid. Please go back to the application."],
            status: .notFound)
    }

    /// `403`: the request is well formed, but the browser holds no live visit (cookie) or
    /// the form's CSRF token is not that visit's, so the server refuses it.
    private func sessionEnded(_ id: String) -> Response {
        renderer.page(
            "error", title: "Page expired",
            [
                "heading": "This page has expired",
                "message": "Please open the link from the application again.",
            ],
            status: .forbidden)
    }
}
