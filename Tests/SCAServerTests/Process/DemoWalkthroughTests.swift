import Foundation
import NIOCore
import NIOPosix
import SCACore
import SCAEngine
import Testing

/// What a newcomer meets walking docs/getting-started.md on `serve --demo`: budgets that let the
/// walkthroughs run, demo data that survives a restart, and a clear line for a busy port.
@Suite("The demo as a newcomer walks it")
struct DemoWalkthroughTests {
    @Test("--demo raises the send budgets the walkthroughs spend; a configured budget and a server without --demo keep theirs")
    func demoBudgets() throws {
        let plain = try ConfigurationLoader().load(file: nil, environment: [:], flags: [:])
        #expect(plain.rateLimits.sendsPerDestination.first?.count == 3)
        let demo = try ConfigurationLoader().load(file: nil, environment: [:], flags: ["demo": "true"])
        #expect(demo.rateLimits.sendsPerDestination.first?.count == 30)
        #expect((demo.rateLimits.sendsPerUser.first?.count ?? 0) >= 30)
        // The walkthroughs send about six codes to one demo phone per pass: twice over fits.
        #expect((demo.rateLimits.sendsPerDestination.first?.count ?? 0) >= 12)
        let configured = try ConfigurationLoader().load(
            file: nil, environment: ["SCA_SEND_LIMITS_PER_DESTINATION": "5/10m"], flags: ["demo": "true"])
        #expect(configured.rateLimits.sendsPerDestination.map(\.count) == [5])
        #expect(configured.rateLimits.sendsPerUser.first?.count == 60)
    }

    @Test("the demo users are created once per data directory: a restart keeps the admin's TOTP seed and every password")
    func demoSeedKept() async throws {
        try await TestServer().run { api in
            let first = try await DemoSeeder(users: api.services.users).seed()
            let admin = try #require(first.first { $0.email == "admin@example.com" })
            let seed = try #require(try await api.services.store.user(email: "admin@example.com")?.sealedTOTPSeed)
            // Someone changed the demo password meanwhile: a restart does not undo it.
            let savvy = try #require(try await api.services.users.find("savvy@example.com"))
            _ = try await api.services.users.update(userID: savvy.id, UpdateUserRequest(password: "changed by hand 1"))
            let hashBefore = try await api.services.store.user(email: "savvy@example.com")?.passwordHash

            let second = try await DemoSeeder(users: api.services.users).seed()
            let again = try #require(second.first { $0.email == "admin@example.com" })
            #expect(again.totpURI == admin.totpURI)
            #expect(admin.totpURI?.hasPrefix("otpauth://totp/") == true)
            #expect(try await api.services.store.user(email: "admin@example.com")?.sealedTOTPSeed == seed)
            #expect(try await api.services.store.user(email: "savvy@example.com")?.passwordHash == hashBefore)
        }
    }

    @Test("a port in use is one line naming the port and --port, before any banner")
    func portInUse() async throws {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(listener.localAddress?.port)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-port-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await AdminCommand.run(
            ["serve", "--demo", "--port", String(port)],
            environment: ["SCA_DATA_DIR": directory.path, "SCA_SCRYPT_LOG_N": "4", "SCA_SCRYPT_R": "1"])
        try await listener.close()
        #expect(run.status == 1)
        #expect(run.output.isEmpty, "the banner was printed: \(run.output)")
        #expect(
            run.errors == "sca-server: port \(port) on 127.0.0.1 is in use; stop what listens there or choose another port with --port\n",
            "\(run.errors)")
    }
}
