import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization

// The partners page: every client with what it holds of the bank's users and how the
// messages to it go, one client's page with its failed deliveries, and their retry.
extension OperatorConsole {
    static let partnersPage = "/console/partners"

    /// `GET /console/partners`.
    func partners(_ request: Request) async throws -> Response {
        let (state, actor): (PageState, ConsoleOperator)
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        let words = words(request, here: Self.partnersPage)
        let partners: [ConsolePartner]
        do {
            partners = try await console.partners(by: actor)
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
        var values = nav(state, actor)
        values["partners"] = partners.map { partnerRow($0, words: words) }
        values["hasPartners"] = !partners.isEmpty
        return renderer.page(
            "console-partners", title: words.text("console.partners.title"), values, words: words, frame: frame(words))
    }

    /// `GET /console/partners/{id}`.
    func partner(_ request: Request, id: String) async throws -> Response {
        var state: PageState
        let actor: ConsoleOperator
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        let page = "\(Self.partnersPage)/\(id)"
        let words = words(request, here: page)
        let detail: ConsolePartnerDetail
        do {
            detail = try await console.partner(id, by: actor)
        } catch let problem as Problem where problem.status == 404 {
            return message("console.partner.notFound.title", PageText("console.partner.notFound.message"), words: words, status: .notFound)
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
        let client = detail.partner.client
        var values = nav(state, actor).merging(partnerRow(detail.partner, words: words)) { $1 }
        values["redirectURIs"] = client.redirectURIs
        values["consentRedirectURIs"] = client.consentRedirectURIs
        values["hasConsentRedirectURIs"] = !client.consentRedirectURIs.isEmpty
        values["scopes"] = client.scopes.isEmpty ? words.text("console.partner.none") : client.scopes.joined(separator: " ")
        values["webhook"] = detail.partner.webhookURL ?? words.text("console.partner.none")
        values["backchannelLogout"] = client.backchannelLogoutURI ?? words.text("console.partner.none")
        values["cibaEndpoint"] = client.cibaNotificationEndpoint ?? words.text("console.partner.none")
        values["created"] = words.dateTime(client.createdAt)
        let consents = detail.partner.activity.consents.sorted { $0.key < $1.key }
        values["consents"] = consents.map { ["status": $0.key, "count": String($0.value)] }
        values["hasConsents"] = !consents.isEmpty
        let mayRetry = actor.may(.clientsWrite)
        values["failed"] = detail.failedDeliveries.map { delivery -> [String: Any] in
            var row: [String: Any] = [
                "id": delivery.id, "kind": words.text("console.partner.kind.\(delivery.kind)"), "subject": delivery.subjectId,
                "state": words.text(
                    delivery.status == "abandoned" ? "console.partner.delivery.abandoned" : "console.partner.delivery.retrying"),
                "stateClass": delivery.status == "abandoned" ? "bad" : "warn",
                "attempts": String(delivery.attempts),
                "lastStatus": delivery.lastHttpStatus.map(String.init) ?? words.text("console.partner.unreachable"),
                "created": words.dateTime(delivery.createdAt),
                "next": delivery.nextAttemptAt.map(words.dateTime) ?? "–",
            ]
            if mayRetry {
                let action = "deliveries/\(delivery.id)/retry"
                row["retry"] = [
                    "action": "\(page)/\(action)", "csrf": PageCookies.csrfToken(state, action: "\(page)/\(action)"),
                    "label": words.text("console.partner.retryLabel", ["id": delivery.id]),
                ]
            }
            return row
        }
        values["hasFailed"] = !detail.failedDeliveries.isEmpty
        values["notice"] = state.notice.map(words.text)
        values["error"] = state.error.map(words.text)
        state.notice = nil
        state.error = nil
        return renderer.page(
            "console-partner", title: client.name, values, words: words, cookie: try cookies.consoleCookie(state), frame: frame(words))
    }

    /// `POST /console/partners/{id}/deliveries/{deliveryID}/retry`.
    func retryDelivery(_ request: Request, clientID: String, deliveryID: String, form: [String: String]) async throws -> Response {
        try await act(
            request, page: "\(Self.partnersPage)/\(clientID)", form: form, action: "deliveries/\(deliveryID)/retry",
            done: PageText("console.done.deliveryRetried")
        ) {
            try await console.retryDelivery(deliveryID, of: clientID, by: $0)
            return nil
        }
    }

    /// The values one partner shows in the list and atop its page.
    private func partnerRow(_ partner: ConsolePartner, words: PageWords) -> [String: Any] {
        let activity = partner.activity
        let deliveries = activity.deliveries
        // Consents the partner still waits on, as the user page counts them.
        let waiting = activity.consents.filter { ConsentStatus(rawValue: $0.key)?.isOpen == true }.values.reduce(0, +)
        var health: String
        var healthClass: String
        if deliveries.abandoned > 0 {
            (health, healthClass) = (words.text("console.partner.health.abandoned", count: deliveries.abandoned), "bad")
        } else if deliveries.retrying > 0 {
            (health, healthClass) = (words.text("console.partner.health.retrying", count: deliveries.retrying), "warn")
        } else {
            (health, healthClass) = (words.text("console.partner.health.ok"), "ok")
        }
        if partner.webhookURL == nil, deliveries.pending + deliveries.delivered + deliveries.abandoned == 0 {
            (health, healthClass) = (words.text("console.partner.health.none"), "off")
        }
        return [
            "href": "\(Self.partnersPage)/\(partner.client.id)", "name": partner.client.name, "clientId": partner.client.id,
            "profile": words.text("console.partner.profile.\(partner.client.profile.rawValue)"),
            "sessions": String(activity.openSessions), "users": String(activity.grantedUsers), "waiting": String(waiting),
            "pending": String(deliveries.pending), "retrying": String(deliveries.retrying),
            "delivered": String(deliveries.delivered), "abandoned": String(deliveries.abandoned),
            "health": health, "healthClass": healthClass,
        ]
    }
}
