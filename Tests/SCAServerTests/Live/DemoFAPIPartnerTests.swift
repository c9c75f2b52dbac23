import Foundation
import Hummingbird
import HummingbirdTesting
import SCACore
import SCAEngine
import SCAPartners
import SCAServer
import SCATestSupport
import Testing

/// `serve --demo`'s FAPI 2.0 partner: the commands start-up prints, run as printed (the
/// partner's script, PyJWT), against a live server whose public address is the issuer the
/// commands name: a signed pushed request for a payment, the sign-in pages showing it, the
/// callback page's command exchanging the code for a DPoP-bound token of that payment.
@Suite("The FAPI demo partner of serve --demo")
struct DemoFAPIPartnerTests {
    /// Runs a printed command line with `sh`, from the project's root, the script signing at
    /// `clock`'s time when given (the server's); its standard output.
    static func run(_ command: String, clock: TestClock? = nil, in directory: URL) async throws -> String {
        try await FAPIScriptTests.output(
            of: URL(fileURLWithPath: "/bin/sh"), ["-c", command], from: FAPIScriptTests.root, scratch: directory, clock: clock,
            named: command)
    }

    @Test(
        "the printed push command and the callback page's token command work: a payment, signed, proved, bound to a DPoP key",
        .enabled(if: FAPIScriptTests.pyJWT != nil, "PyJWT is not in .build/pyjwt (.ci/run installs it)"))
    func printedCommandsWork() async throws {
        let port = try WebDriver.freePort()
        let base = "http://127.0.0.1:\(port)"
        let server = try await TestServer {
            $0.demo = true
            $0.publicBaseURL = base
        }
        // The script calls the issuer it prints, so the server listens at that very address; the
        // browser's part goes through the router.
        try await server.runListening(port: port, base: base) { api in
            try await Self.walk(api, server: server, base: base)
        }
    }

    static func walk(_ api: APIClient, server: TestServer, base: String) async throws {
        let users = try await DemoSeeder(users: server.services.users).seed()
        let savvy = try #require(users.first { $0.email == "savvy@example.com" })
        let instructions = try await server.services.registerDemoPartner()
        let fapi = try #require(instructions.fapi)
        let push = try #require(instructions.fapiPushCommand)
        #expect(instructions.lines.contains { $0.contains(push) })
        #expect(fapi.keyPath.hasPrefix("/") && fapi.keyPath.hasSuffix(DemoPartner.fapiKeyFile))
        let attributes = try FileManager.default.attributesOfItem(atPath: fapi.keyPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "the partner's private key is its owner's alone")

        // A restart keeps the key and replaces the client.
        let again = try await server.services.registerDemoPartner()
        #expect(again.fapi?.keyPath == fapi.keyPath)
        let clients = try await server.services.partnerAccess.partners.list().filter { $0.name == DemoPartner.fapiName }
        let againID = try #require(again.fapi?.clientID)
        #expect(clients.map(\.clientId) == [againID])
        #expect(clients.first?.profile == .fapi2 && clients.first?.requireSignedRequestObject == true)
        let pushCommand = try #require(again.fapiPushCommand)

        do {
            let browser = PageBrowser(api: api)
            func path(_ url: String) -> String { url.hasPrefix(base) ? String(url.dropFirst(base.count)) : url }

            // 3. The printed push command: a signed request object at PAR; it prints the URL.
            let authorizeURL = try await Self.run(pushCommand, clock: server.clock, in: server.directory)
            #expect(authorizeURL.hasPrefix(base + "/oauth2/authorize?client_id="), "\(authorizeURL)")

            // The pages show the payment, and the SMS code is bound to it.
            let start = try await browser.get(path(authorizeURL))
            #expect(start.status == 200)
            #expect(start.text.contains(DemoPartner.fapiName))
            try await browser.submit(start, action: "/signin/email", ["email": savvy.email])
            let factors = try await browser.get("/signin")
            #expect(factors.text.contains("ACME Shop"), "the payee is on the page")
            try await browser.submit(factors, action: "/signin/proof", ["method": "password", "credential": savvy.password])
            try await browser.submit(try await browser.get("/signin"), action: "/signin/send", ["method": "sms_otp"])
            let sms = try #require(try api.services.outbox?.messages().last { $0.to == savvy.phone })
            #expect(sms.text.contains("€25.00 to ACME Shop"), "\(sms.text)")
            let signedIn = try await browser.submit(
                try await browser.get("/signin"), action: "/signin/proof", ["method": "sms_otp", "credential": String(sms.text.prefix(6))])
            let callback = try #require(signedIn.headers[.location])
            #expect(callback.hasPrefix(base + DemoPartner.fapiCallbackPath + "?code="))

            // 4. The callback page prints the token command; run as printed.
            let landed = try await browser.get(path(callback))
            #expect(landed.status == 200)
            let command = try #require(Self.command(in: landed.text))
            #expect(command.contains(" token "))
            let answer = try await Self.run(command, clock: server.clock, in: server.directory)
            let tokens = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
            #expect(tokens["token_type"] as? String == "DPoP")
            let claims = try jwtClaims(try #require(tokens["access_token"] as? String))
            #expect((claims["cnf"] as? [String: Any])?["jkt"] is String)
            #expect(claims["op"] as? String == "payment")
            let details = try #require((claims["authorization_details"] as? [[String: Any]])?.first)
            #expect((details["instructedAmount"] as? [String: Any])?["amount"] as? String == "25.00")
            #expect((details["creditorAccount"] as? [String: Any])?["iban"] as? String == "FR7630006000011234567890189")

            // A crafted callback cannot put anything into the printed command but encoded text.
            let crafted = try await browser.get(DemoPartner.fapiCallbackPath + "?code=x%27%3B%20rm%20-rf%20~&state=s")
            let craftedCommand = try #require(Self.command(in: crafted.text))
            #expect(!craftedCommand.contains("; rm"))
            #expect(craftedCommand.contains("code=x%27%3B%20rm%20-rf%20~"))
        }
    }

    /// The command in a demo page's `<pre class="command">`, its HTML escapes undone.
    static func command(in html: String) -> String? {
        guard let start = html.range(of: #"<pre class="command">"#), let end = html.range(of: "</pre>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}
