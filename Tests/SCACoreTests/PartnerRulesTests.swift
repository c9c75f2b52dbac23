import Foundation
import SCACore
import Testing

@Suite("Pure rules of the partner pages: redirect URIs, PKCE, consent moves, wording")
struct PartnerRulesTests {
    @Test("redirect URIs: https, http on loopback only, private-use schemes with a dot; never a fragment or user info")
    func redirectURIs() {
        for good in [
            "https://shop.example/cb", "https://shop.example:8443/cb?x=1", "http://localhost/cb", "http://localhost:5173/cb",
            "http://127.0.0.1:9/cb", "com.example.app:/cb", "com.example.app:/oauth2redirect",
        ] {
            #expect(RedirectURIRules.problem(good) == nil, "\(good)")
        }
        for bad in [
            "", "http://shop.example/cb", "http://localhost.evil.example/cb", "http://10.0.0.1/cb", "https:///cb",
            "https://shop.example/cb#x", "https://user:pw@shop.example/cb", "javascript:alert(1)", "data:text/html,x",
            "file:///etc/passwd", "myapp:/cb", "https://shop.example/a b", "/relative",
            "https://shop.example/" + String(repeating: "a", count: 600),
        ] {
            #expect(RedirectURIRules.problem(bad) != nil, "\(bad)")
        }
        #expect(RedirectURIRules.matches("https://a.example/cb", registered: ["https://a.example/cb"]))
        #expect(!RedirectURIRules.matches("https://a.example/cb/", registered: ["https://a.example/cb"]))
        #expect(!RedirectURIRules.matches("https://a.example/cb?x=1", registered: ["https://a.example/cb"]))
        #expect(RedirectURIRules.origin(of: "https://a.example:8443/cb") == "https://a.example:8443")
        #expect(RedirectURIRules.origin(of: "com.example.app:/cb") == nil)
        #expect(
            RedirectURIRules.appending([("code", "a b&c"), ("state", "é")], to: "https://a.example/cb?x=1")
                == "https://a.example/cb?x=1&code=a%20b%26c&state=%C3%A9")
    }

    @Test("PKCE S256: the RFC 7636 example, and malformed verifiers")
    func pkce() {
        // RFC 7636 appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        #expect(PKCE.challenge(for: verifier) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.verify(verifier, against: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
        #expect(!PKCE.verify(verifier + "x", against: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
        #expect(!PKCE.isWellFormedVerifier("short"))
        #expect(!PKCE.isWellFormedVerifier(String(repeating: "a", count: 129)))
        #expect(!PKCE.isWellFormedVerifier(String(repeating: "a", count: 42) + "+"))
        #expect(PKCE.isWellFormedChallenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
        #expect(!PKCE.isWellFormedChallenge("plain-challenge"))
    }

    @Test("consent moves: once accepted or refused, never again; expiry only while open")
    func consentMoves() {
        #expect(ConsentStatus.created.canMove(to: .started))
        #expect(ConsentStatus.started.canMove(to: .accepted))
        #expect(!ConsentStatus.created.canMove(to: .accepted))  // never without the page
        #expect(!ConsentStatus.accepted.canMove(to: .accepted))
        #expect(!ConsentStatus.customerRefused.canMove(to: .accepted))
        #expect(!ConsentStatus.expired.canMove(to: .started))
        #expect(!ConsentStatus.accepted.canMove(to: .expired))
        #expect(ConsentStatus.accepted.canMove(to: .operationCommitting))
        #expect(!ConsentStatus.operationCommitting.canMove(to: .canceled))
        for status in ConsentStatus.allCases where status.isFinal {
            #expect(ConsentStatus.allCases.allSatisfy { !status.canMove(to: $0) }, "\(status)")
        }
    }
}
