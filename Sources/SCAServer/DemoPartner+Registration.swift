import Foundation
import SCACore
import SCAEngine
import SCAPartners

extension SCAServices {
    /// Registers the demo partner of `serve --demo` (a public client whose redirects come back
    /// to the demo pages under `baseURL`), replacing one a previous start registered, and
    /// returns what to print.
    /// - Throws: `ConfigurationError` when the server does not run in demo mode.
    package func registerDemoPartner() async throws -> DemoPartner.Instructions {
        guard let demoPartner = partnerAccess.demoPartner else { throw ConfigurationError("the demo partner exists in demo mode only") }
        let base = engine.configuration.baseURL
        // A previous start's client has this start's name but perhaps another port.
        for client in try await partnerAccess.partners.list()
        where client.name == DemoPartner.name && client.redirectUris.allSatisfy({ $0.hasSuffix(DemoPartner.callbackPath) }) {
            try await partnerAccess.partners.remove(clientID: client.clientId)
        }
        let client = try await partnerAccess.partners.create(CreatePartnerClientRequest(
            name: DemoPartner.name, redirectUris: [base + DemoPartner.callbackPath],
            consentRedirectUris: [base + DemoPartner.consentDonePath], publicClient: true))
        await demoPartner.registered(client.clientId)
        return DemoPartner.Instructions(
            clientID: client.clientId, signInURL: await demoPartner.signInURL(base: base) ?? "",
            consentCommand: DemoPartner.consentCommand(base: base))
    }
}
