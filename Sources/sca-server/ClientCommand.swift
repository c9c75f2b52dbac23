import ArgumentParser
import Foundation
import SCACore
import SCAEngine
import SCAServer

extension ClientProfile: ExpressibleByArgument {}

/// `sca-server client …`: partner clients of the hosted pages, on the server's database.
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client", abstract: "Manage partner clients (OAuth 2.0 / OpenID Connect, consents).",
        subcommands: [Create.self, List.self, Remove.self, Webhook.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a partner client; its secret is printed once and never again.")
        @OptionGroup var common: CommonOptions
        @Option(help: "Name the user sees on the pages.") var name: String
        @Option(name: .customLong("redirect-uri"), help: "Exact sign-in redirect URI; repeat for several.") var redirectURIs: [String]
        @Option(name: .customLong("consent-redirect-uri"), help: "Exact consent redirect URL; repeat for several.")
        var consentRedirectURIs: [String] = []
        @Option(help: "A scope the client may ask for; repeat for several (default: all).") var scope: [String] = []
        @Flag(help: "A public client (native or browser app): no secret, PKCE only.") var publicClient = false
        @Option(help: "standard, or fapi2 (FAPI 2.0: private_key_jwt with --jwks-file, pushed authorization requests only).")
        var profile: ClientProfile = .standard
        @Option(
            name: .customLong("jwks-file"),
            help: "A JSON file with the client's public keys (a JWK Set): the client authenticates with private_key_jwt.")
        var jwksFile: String?
        @Option(
            name: .customLong("jwks-uri"),
            help: "Where the client publishes its public keys (a JWK Set), instead of --jwks-file: fetched and cached; private_key_jwt.")
        var jwksURI: String?
        @Option(
            name: .customLong("backchannel-logout-uri"),
            help: "Where a logout token is POSTed when one of the client's sessions ends (OpenID Connect Back-Channel Logout).")
        var backchannelLogoutURI: String?
        @Option(
            name: .customLong("ciba-notification-endpoint"),
            help: "CIBA ping mode: where the client is told that a request has its answer (default: poll mode).")
        var cibaNotificationEndpoint: String?
        @Option(
            name: .customLong("authorization-details-type"),
            help: "An authorization_details type the client may ask users to approve: payment_initiation or account_information; repeat for both.")
        var authorizationDetailsTypes: [String] = []
        @Option(name: .customLong("post-logout-redirect-uri"), help: "Exact address a logout may send the user back to; repeat for several.")
        var postLogoutRedirectURIs: [String] = []
        @Flag(help: "Its pushed authorization requests must be signed request objects (needs --jwks-file).")
        var requireSignedRequestObject = false
        @Option(name: .customLong("webhook-url"), help: "Where the final status of its operations is POSTed (see docs/WEBHOOKS.md).")
        var webhookURL: String?

        func validate() throws {
            // Checked before anything is stored, so a bad URL leaves no client behind.
            if let webhookURL, let problem = WebhookService.urlProblem(webhookURL) {
                throw ValidationError("--webhook-url \(problem)")
            }
        }

        func run() async throws {
            let jwks = try jwksFile.map { path in
                do {
                    return try WireJSON.decoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
                } catch {
                    throw ValidationError("--jwks-file \(path) is not a readable JSON file: \(error.localizedDescription)")
                }
            }
            try await withServices(common) { services in
                let client = try await services.partnerAccess.partners.create(CreatePartnerClientRequest(
                    name: name, redirectUris: redirectURIs, consentRedirectUris: consentRedirectURIs,
                    scopes: scope.isEmpty ? nil : scope, publicClient: publicClient ? true : nil, profile: profile, jwks: jwks,
                    authorizationDetailsTypes: authorizationDetailsTypes.isEmpty ? nil : authorizationDetailsTypes,
                    requireSignedRequestObject: requireSignedRequestObject ? true : nil,
                    postLogoutRedirectUris: postLogoutRedirectURIs.isEmpty ? nil : postLogoutRedirectURIs, jwksUri: jwksURI,
                    backchannelLogoutUri: backchannelLogoutURI,
                    backchannelTokenDeliveryMode: cibaNotificationEndpoint == nil ? nil : "ping",
                    backchannelClientNotificationEndpoint: cibaNotificationEndpoint))
                print("client_id: \(client.clientId)")
                print("profile: \(client.profile.rawValue)  authentication: \(client.tokenEndpointAuthMethod)")
                if !client.authorizationDetailsTypes.isEmpty {
                    print("authorization_details types: \(client.authorizationDetailsTypes.joined(separator: " "))")
                }
                if let jwksURI = client.jwksUri { print("jwks_uri: \(jwksURI)") }
                if let logoutURI = client.backchannelLogoutUri { print("backchannel_logout_uri: \(logoutURI)") }
                if let endpoint = client.backchannelClientNotificationEndpoint { print("ciba: ping to \(endpoint)") }
                if let secret = client.clientSecret {
                    print("client_secret: \(secret)  (shown once; store it now)")
                }
                if let webhookURL {
                    let webhook = try await services.webhooks.set(clientID: client.clientId, SetPartnerWebhookRequest(url: webhookURL))
                    print("webhook_signing_secret: \(webhook.signingSecret ?? "")  (shown once; store it now)")
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List partner clients.")
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withServices(common) { services in
                for client in try await services.partnerAccess.partners.list() {
                    print("\(client.clientId)  \(client.name)  \(client.profile.rawValue)  \(client.tokenEndpointAuthMethod)  "
                        + "redirects: \(client.redirectUris.joined(separator: " "))")
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a partner client.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The client_id.") var clientID: String

        func run() async throws {
            try await withServices(common) { services in
                try await services.partnerAccess.partners.remove(clientID: clientID)
                print("removed \(clientID)")
            }
        }
    }

    /// Partner webhooks.
    struct Webhook: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set (or with --remove, remove) a client's webhook; the new signing secret is printed once.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The client_id.") var clientID: String
        @Option(help: "https URL (http on localhost / 127.0.0.1 for development).") var url: String?
        @Flag(help: "Remove the webhook instead.") var remove = false

        func validate() throws {
            guard (url != nil) != remove else { throw ValidationError("give exactly one of --url and --remove") }
        }

        func run() async throws {
            try await withServices(common) { services in
                if let url {
                    let webhook = try await services.webhooks.set(clientID: clientID, SetPartnerWebhookRequest(url: url))
                    print("webhook_signing_secret: \(webhook.signingSecret ?? "")  (shown once; store it now)")
                } else {
                    try await services.webhooks.remove(clientID: clientID)
                    print("removed the webhook of \(clientID)")
                }
            }
        }
    }
}
