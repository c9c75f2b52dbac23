import Hummingbird
import SCAEngine

/// Partner access over the engine, built once: the client registry, OAuth 2.0 and OpenID
/// Connect, consents, CIBA, and the demo partner of `serve --demo`; and their routes.
package struct PartnerAccess: Sendable {
    /// Partner clients: registration, and the check of their credentials.
    package let partners: PartnerService
    /// OAuth 2.0 and OpenID Connect for partner clients.
    package let oauth: OAuthService
    /// Partners' consents to single operations.
    package let consents: ConsentService
    /// CIBA poll and ping modes over operations.
    let ciba: CIBAService
    /// The demo partner application of `serve --demo`, nil otherwise.
    package let demoPartner: DemoPartner?
    let adminAccess: AdminAccess
    /// The engine's operations, which CIBA requests are.
    let operations: OperationService
    let maxBodySize: Int

    /// Builds partner access over the engine's services: partners get tokens only through the
    /// engine's delegated-token API.
    package init(engine: Engine) {
        let configuration = engine.configuration
        partners = PartnerService(
            context: engine.context, metrics: engine.metrics, webhooks: engine.webhooks,
            published: PublishedClientKeys(outbound: engine.outbound, refusing: engine.webhooks.outboundCheck))
        oauth = OAuthService(context: engine.context, partners: partners, tokens: engine.tokens)
        consents = ConsentService(
            context: engine.context, tokens: engine.tokens, challenges: engine.challenges, operations: engine.operations,
            webhooks: engine.webhooks)
        ciba = CIBAService(context: engine.context, tokens: engine.tokens)
        demoPartner = configuration.demo ? DemoPartner(runtime: engine.runtime) : nil
        adminAccess = engine.adminAccess
        operations = engine.operations
        maxBodySize = configuration.maxBodySize
    }

    /// The partner API's routes: discovery, the OAuth endpoints but the authorization page, the
    /// consents API, partner clients under the admin API, and CIBA.
    package func register<Context: RequestContext>(on routes: RouteRecorder<Context>) {
        PartnerRoutes(partners: partners, oauth: oauth, consents: consents, access: adminAccess, maxBodySize: maxBodySize)
            .register(on: routes)
        CIBARoutes(oauth: oauth, ciba: ciba, operations: operations, maxBodySize: maxBodySize).register(on: routes)
    }

}
