import Foundation
import Logging
import SCACore
import SCAStorage

/// Partner webhooks: a partner client registers a URL and gets a signing secret;
/// every final status of an operation it created is written to a durable outbox
/// (`webhook_deliveries`) in the same store transaction as that status, and posted, signed, by ``deliverDue()`` from a
/// background service, retried with back-off (``WebhookDeliveryRecord/backoff``) and given up
/// (audited) after the last attempt. Each attempt is claimed by compare-and-set with a lease,
/// so of several instances one sends it.
///
/// The same outbox carries what else the server tells a partner on its own: a logout token
/// when one of its sessions ends (written by the store with the session's end), and a CIBA
/// ping when a request of a client in ping mode has its answer.
package struct WebhookService: EngineService, Sendable {
    package let context: EngineContext
    /// Posts without following redirects, to an address it resolved and checked itself.
    let outbound: OutboundHTTP
    /// Signs logout tokens with the key of the id_tokens they answer.
    let signer: TokenSigner
    /// `webhookAllowPrivateAddresses`: whether a webhook may point at loopback, private and
    /// other special-purpose addresses (development and tests only).
    var allowPrivateAddresses = false

    static let sealingContext = "partner-webhook-secret"
    static let eventType = "operation.finished"
    /// Deliveries (and overdue operations) handled per pass.
    package static let batch = 50
    static let timeout = Duration.seconds(10)

    // MARK: Registration

    /// Sets (or replaces) the client's webhook with a fresh signing secret, shown once.
    /// - Throws: `Problem.clientNotFound`; `Problem.invalidRequest` naming the rule the URL breaks.
    package func set(clientID: String, _ request: SetPartnerWebhookRequest) async throws -> PartnerWebhookResponse {
        guard InputRules.isWellFormedID(clientID, prefix: "cli"), try await store.partnerClient(id: clientID) != nil else {
            throw Problem.clientNotFound
        }
        try checkAddress(request.url, field: "url")
        let secret = runtime.makeSecret()
        let record = PartnerWebhookRecord(
            clientID: clientID, url: request.url,
            sealedSecret: try box.seal(Array(secret.utf8), context: Self.sealingContext), createdAt: runtime.now())
        try await store.setPartnerWebhook(record)
        await audit.record(.partnerWebhookChanged, details: ["clientId": clientID])
        return PartnerWebhookResponse(clientId: clientID, url: record.url, signingSecret: secret, createdAt: record.createdAt)
    }

    /// - Throws: `Problem.clientNotFound` when the client has no webhook.
    package func remove(clientID: String) async throws {
        guard InputRules.isWellFormedID(clientID, prefix: "cli"), try await store.removePartnerWebhook(clientID: clientID) else {
            throw Problem.clientNotFound
        }
        await audit.record(.partnerWebhookChanged, outcome: "removed", details: ["clientId": clientID])
    }

    /// Checks a URL a partner registers for the server to call on its own (a webhook, a logout
    /// URI, a CIBA notification endpoint, a JWK Set): ``urlProblem(_:)``, and a host that names
    /// no special-purpose address unless those are allowed. Each call checks again, on the
    /// addresses the name resolves to then.
    /// - Throws: `Problem.invalidRequest` naming `field` and the rule; `Problem.webhookAddressRefused`.
    package func checkAddress(_ url: String, field: String) throws {
        if let problem = Self.urlProblem(url) { throw Problem.invalidRequest("\(field) \(problem)") }
        if !allowPrivateAddresses, let host = URLComponents(string: url)?.host,
            let kind = SpecialPurposeAddress.kind(ofHost: host)
        {
            throw Problem.webhookAddressRefused(kind, field: field)
        }
    }

    /// Why `url` cannot be a webhook, or nil: the redirect URI rules (https, or http on
    /// localhost / 127.0.0.1), without private-use schemes, which cannot be posted to.
    package static func urlProblem(_ url: String) -> String? {
        if let problem = RedirectURIRules.problem(url) { return problem }
        let scheme = URLComponents(string: url)?.scheme?.lowercased()
        guard scheme == "https" || scheme == "http" else { return "must be https, or http on localhost or 127.0.0.1" }
        return nil
    }

    // MARK: Outbox

    /// What announces `operation`'s final status, to be written by the store in the same
    /// transaction as that status (`updateOperation(_:expectedVersion:enqueueing:)`): the
    /// webhook event, and the CIBA ping when the operation keeps a notification; none when it
    /// is not final or not a partner's. The store drops each one whose address the partner has
    /// not registered.
    func events(for operation: OperationRecord) -> [WebhookDeliveryRecord] {
        guard let clientID = operation.clientID, operation.status.isFinal else { return [] }
        let now = runtime.now()
        let id = runtime.makeID(prefix: "evt")
        let event = WebhookEvent(
            type: Self.eventType, eventId: id, operationId: operation.id, status: operation.status,
            occurredAt: operation.finishedAt ?? now)
        var events = delivery(id: id, clientID: clientID, subjectID: operation.id, event: event, now: now).map { [$0] } ?? []
        if let sealed = operation.sealedNotification {
            do {
                let notification = try CIBANotification.opened(sealed, with: box)
                events.append(
                    WebhookDeliveryRecord(
                        id: runtime.makeID(prefix: "png"), kind: .cibaPing, clientID: clientID, subjectID: operation.id,
                        body: notification.pingBody, nextAttemptAt: now, createdAt: now))
            } catch {
                // Sealed by this server key: unreachable unless the key changed; the client
                // still learns the answer by polling.
                logger.error("CIBA notification not opened", metadata: ["operation": "\(operation.id)"])
            }
        }
        return events
    }

    /// The outbox record posting `event` (its body fixed now, so every retry sends the same bytes).
    func delivery(id: String, clientID: String, subjectID: String, event: some Encodable, now: Date) -> WebhookDeliveryRecord? {
        do {
            let body = String(decoding: try WireJSON.encode(event), as: UTF8.self)
            return WebhookDeliveryRecord(
                id: id, clientID: clientID, subjectID: subjectID, body: body, nextAttemptAt: now, createdAt: now)
        } catch {
            // Unreachable for these plain types; the status change goes on without its event.
            logger.error("webhook event not encoded", metadata: ["subject": "\(subjectID)", "error": "\(type(of: error))"])
            return nil
        }
    }

    // MARK: Delivery

    /// One pass: sends every delivery that is due. Run every second in the background
    /// (``SCAServices/webhookDeliveries``), after the overdue operations and consents are expired
    /// so that their events are written first.
    /// - Returns: how many attempts were made.
    @discardableResult
    package func deliverDue() async throws -> Int {
        var attempts = 0
        for due in try await store.dueWebhookDeliveries(now: runtime.now(), limit: Self.batch) {
            var claimed = due
            guard claimed.claim(now: runtime.now()),
                try await store.updateWebhookDelivery(claimed, expectedVersion: due.version)
            else { continue }
            claimed.version += 1
            let status = await attempt(claimed)
            attempts += 1
            var next = claimed
            next.record(httpStatus: status, now: runtime.now())
            guard try await store.updateWebhookDelivery(next, expectedVersion: claimed.version) else { continue }
            if next.status == .abandoned {
                logger.warning("webhook event given up", metadata: ["event": "\(next.id)", "client": "\(next.clientID)"])
                await audit.record(
                    .webhookAbandoned, outcome: "abandoned",
                    details: [
                        "eventId": next.id, "subjectId": next.subjectID, "clientId": next.clientID,
                        "lastStatus": next.lastHTTPStatus.map(String.init) ?? "unreachable",
                    ])
            }
        }
        return attempts
    }

    /// Posts the delivery once. A redirect is an answer like any other that is not 2xx: a
    /// failed attempt, retried; it is never followed.
    /// - Returns: the receiver's HTTP status; nil when it was not reached, its address was
    ///   refused, or the address was removed meanwhile (retried like an unreachable receiver,
    ///   so the back-off bounds it).
    private func attempt(_ delivery: WebhookDeliveryRecord) async -> Int? {
        var host = "-"
        do {
            guard let request = try await request(for: delivery) else { return nil }
            host = request.url.host ?? "-"
            return try await outbound.post(
                request.url, headers: request.headers, body: request.body, timeout: Self.timeout,
                for: .partnerDelivery(delivery.kind.rawValue, clientID: delivery.clientID), refusing: outboundCheck)
        } catch OutboundRefusal.address(let refused) {
            logger.warning("webhook address refused", metadata: ["event": "\(delivery.id)", "kind": "\(refused.rawValue)"])
            await audit.record(
                .webhookAddressRefused, outcome: refused.rawValue,
                details: ["eventId": delivery.id, "clientId": delivery.clientID, "host": host])
            return nil
        } catch {
            logger.info("webhook attempt failed", metadata: ["event": "\(delivery.id)", "error": "\(type(of: error))"])
            return nil
        }
    }

    /// The check of every address the server posts to or fetches from for a partner: at each
    /// attempt, on the addresses the connection goes to, so a name that was public at
    /// registration and now points inside is refused. Nil lets everything through
    /// (`webhookAllowPrivateAddresses`, development and tests).
    package var outboundCheck: (@Sendable ([UInt8]) -> SpecialPurposeAddress.Kind?)? {
        if allowPrivateAddresses { return nil }
        let check: @Sendable ([UInt8]) -> SpecialPurposeAddress.Kind? = { SpecialPurposeAddress.kind(of: $0) }
        return check
    }

    /// Where a delivery goes and what it says, built at each attempt from what is registered
    /// now; nil when its address (or its subject) is gone.
    private func request(for delivery: WebhookDeliveryRecord) async throws -> (url: URL, headers: [(String, String)], body: [UInt8])? {
        let now = runtime.now()
        switch delivery.kind {
        case .event:
            guard let webhook = try await store.partnerWebhook(clientID: delivery.clientID),
                let url = URL(string: webhook.url)
            else { return nil }
            let secret = String(decoding: try box.open(webhook.sealedSecret, context: Self.sealingContext), as: UTF8.self)
            let body = Array(delivery.body.utf8)
            let timestamp = Int(now.timeIntervalSince1970)
            let headers = [
                ("Content-Type", "application/json"),
                (WebhookSignature.idHeader, delivery.id),
                (WebhookSignature.timestampHeader, String(timestamp)),
                (WebhookSignature.signatureHeader, WebhookSignature.sign(body: body, timestamp: timestamp, secret: secret)),
            ]
            return (url, headers, body)
        case .backchannelLogout:
            guard let client = try await store.partnerClient(id: delivery.clientID),
                let url = client.backchannelLogoutURI.flatMap(URL.init(string:)),
                let session = try await store.session(id: delivery.subjectID)
            else { return nil }
            // Signed at each attempt, so a late retry is not refused as expired; the same
            // `jti` lets the partner drop a repeat.
            let token = try signer.sign(
                LogoutTokenClaims(
                    issuer: configuration.baseURL, userID: session.userID, sessionID: session.id, clientID: client.id,
                    id: delivery.id, now: now),
                type: LogoutTokenClaims.type)
            let body = Array("logout_token=\(RedirectURIRules.formEncoded(token))".utf8)
            return (url, [("Content-Type", "application/x-www-form-urlencoded")], body)
        case .cibaPing:
            guard let client = try await store.partnerClient(id: delivery.clientID),
                let url = client.cibaNotificationEndpoint.flatMap(URL.init(string:)),
                let sealed = try await store.operation(id: delivery.subjectID)?.sealedNotification
            else { return nil }
            let notification = try CIBANotification.opened(sealed, with: box)
            let headers = [("Content-Type", "application/json"), ("Authorization", "Bearer \(notification.token)")]
            return (url, headers, Array(delivery.body.utf8))
        }
    }
}
