import Foundation
import SCACore
import SCAEngine
import Testing

@Suite("openapi.yaml describes the API as built")
struct OpenAPITests {
    @Test("served at /openapi.yaml, naming every route and every problem code the server uses")
    func servedAndComplete() async throws {
        try await TestServer().run { api in
            let response = try await api.send(.get, "/openapi.yaml")
            #expect(response.status == 200)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.hasPrefix("openapi: 3.1"))
            for path in [
                "/v1/challenges:", "/v1/challenges/{id}:", "/v1/challenges/{id}/proofs:", "/v1/challenges/{id}/otp:",
                "/v1/tokens/refresh:", "/v1/tokens/revoke:", "/v1/tokens/introspect:", "/v1/activations:",
                "/v1/devices:", "/v1/devices/{id}:", "/v1/devices/{id}/status:", "/v1/me:", "/admin/v1/users:",
                "/admin/v1/users/{id}:", "/admin/v1/users/{id}/totp:", "/admin/v1/users/{id}/unblock:",
                "/admin/v1/users/{id}/activations:", "/admin/v1/devices/{id}:", "/admin/v1/devices/{id}/block:",
                "/admin/v1/devices/{id}/unblock:", "/.well-known/jwks.json:", "/health/live:", "/health/ready:", "/metrics:",
                // Passkeys.
                "/v1/passkeys/registration/options:", "/v1/passkeys:", "/v1/passkeys/{id}:", "/admin/v1/users/{id}/passkeys:",
                "/admin/v1/passkeys/{id}:",
                // Partners: OAuth 2.0 / OpenID Connect, consents, hosted pages, clients.
                "/.well-known/openid-configuration:", "/.well-known/oauth-authorization-server:", "/oauth2/authorize:",
                "/oauth2/token:", "/oauth2/par:", "/oauth2/introspect:", "/oauth2/revoke:", "/oauth2/userinfo:", "/v1/consents:", "/v1/consents/{id}:",
                "/v1/consents/{id}/status:", "/admin/v1/clients:", "/admin/v1/clients/{id}:", "/signin:", "/signin/email:",
                "/signin/send:", "/signin/proof:", "/signin/cancel:", "/consents/{id}:", "/consents/{id}/send:",
                "/consents/{id}/proof:", "/consents/{id}/refuse:", "/hosted/style.css:",
                "/demo/callback:", "/demo/consent:", "/demo/consent-done:",
                // Partner webhooks.
                "/admin/v1/clients/{id}/webhook:",
                // "Approve on your phone" on the consent page.
                "/consents/{id}/phone:", "/consents/{id}/phone/status:", "/consents/{id}/phone/cancel:", "/hosted/phone.js:",
            ] {
                #expect(text.contains("\n  \(path)\n"), "\(path) is not documented")
            }
            for code in [
                ProblemCode.requestInvalid, .requestTooLarge, .challengeExpired, .challengeCompleted, .methodNotOffered,
                .categoriesUnavailable, .proofRejected, .authenticationFailed, .attemptsInProgress, .userLocked,
                .otpResendTooSoon, .otpSendLimit, .tokenReused, .sessionExpired,
                .activationCodeInvalid, .deviceProofInvalid, .deviceLimitReached, .deviceBlocked, .deviceRemoved, .forbidden,
                .rateLimited,
                .proofInProgress, .categoryAlreadyCollected, .codeAlreadyUsed,
                .requestTimeout, .unsupportedMediaType, .transactionRequired, .methodNotAllowed,
                .serverUnavailable,
                // Partner clients and consents.
                .clientNotFound, .consentNotFound, .consentClosed, .consentRedirectNotRegistered,
                // Passkeys.
                .passkeyUnavailable, .passkeyInvalid, .passkeyChallengeInvalid, .passkeyAlreadyRegistered,
                .passkeyLimitReached, .passkeyNotFound,
                // Delegated tokens.
                .tokenDelegated, .tokenNotDelegated, .tokenScopeMissing, .operationNotGrantable,
                // Mutual TLS at the admin API.
                .clientCertificateRequired,
            ] {
                #expect(text.contains("- \(code.rawValue)\n"), "\(code) is not in the Problem.code enum")
            }
            // The audit filter's event parameter names every event the trail records, and no other.
            let parameter = try #require(text.range(of: "    AuditEvent:\n      name: event\n"))
            let listed = text[parameter.upperBound...].split(separator: "\n").drop { !$0.contains("enum:") }.dropFirst()
                .prefix { $0.hasPrefix("          - ") }.map { String($0.dropFirst("          - ".count)) }
            #expect(Set(listed) == Set(AuditEvent.allCases.map(\.rawValue)))
        }
    }
}
