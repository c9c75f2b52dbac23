import Foundation
import SCACore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `sca-server admin-key` on a real database, and a revoked key on two instances at once.
@Suite("admin-key command and revocation across instances", .serialized)
struct AdminKeyCommandTests {
    @Test("create prints the key once, list shows name, scopes and use, revoke stops it (SQLite)")
    func createListRevoke() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["SCA_DATA_DIR": directory.path]

        let created = try await AdminCommand.run(
            ["admin-key", "create", "--name", "ci", "--scopes", "users:read,audit:read"], environment: environment)
        #expect(created.status == 0, "\(created.errors)")
        let key = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.hasPrefix("ak_") && key.split(separator: ".").count == 2)
        #expect(created.errors.contains("admin key ci") && !created.errors.contains(key))

        let refused = try await AdminCommand.run(["admin-key", "create", "--name", "x", "--scopes", "users:everything"], environment: environment)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("unknown scope users:everything"))

        let listed = try await AdminCommand.run(["admin-key", "list"], environment: environment)
        #expect(listed.output.contains("ci  ak_") && listed.output.contains("[audit:read,users:read]"))
        #expect(listed.output.contains("last used: never") && !listed.output.contains(key))

        let revoked = try await AdminCommand.run(["admin-key", "revoke", "ci"], environment: environment)
        #expect(revoked.status == 0)
        #expect(try await AdminCommand.run(["admin-key", "list"], environment: environment).output.contains("revoked: "))
        #expect(try await AdminCommand.run(["admin-key", "revoke", "nothing"], environment: environment).status != 0)
    }

    @Test(
        "a key revoked with the CLI is refused at once by both instances on one PostgreSQL database",
        .enabled(if: ServerPair.databaseURL != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL"))
    func revokedOnBothInstances() async throws {
        try await ServerPair.withSchema { databaseURL, directory in
            let environment = ServerPair.environment(databaseURL: databaseURL, serverKey: ServerPair.newServerKey())
            var processes: [ServeProcess] = []
            do {
                for name in ["a", "b"] {
                    processes.append(try ServeProcess(directory: directory.appendingPathComponent(name), environment: environment))
                }
                let a = ServerInstance(port: try await processes[0].port())
                let b = ServerInstance(port: try await processes[1].port())
                var cli = environment
                cli["SCA_DATA_DIR"] = directory.appendingPathComponent("cli").path

                let created = try await AdminCommand.run(["admin-key", "create", "--name", "shared", "--scopes", "users:read"], environment: cli)
                #expect(created.status == 0, "\(created.errors)")
                let key = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(try await a.send("GET", "/admin/v1/users", bearer: key).status == 200)
                #expect(try await b.send("GET", "/admin/v1/users", bearer: key).status == 200)
                // A scope the key lacks, on either instance.
                #expect(try await b.send("POST", "/admin/v1/users", bearer: key).status == 403)

                #expect(try await AdminCommand.run(["admin-key", "revoke", "shared"], environment: cli).status == 0)
                #expect(try await a.send("GET", "/admin/v1/users", bearer: key).status == 401)
                #expect(try await b.send("GET", "/admin/v1/users", bearer: key).status == 401)
                // Neither instance logged the key.
                for process in processes { #expect(!process.log.contains(key)) }
                #expect(processes.allSatisfy { $0.log.contains("admin key refused") })
            } catch {
                for process in processes { await process.stop() }
                throw error
            }
            for process in processes { await process.stop() }
        }
    }
}

extension ServerInstance {
    func send(_ method: String, _ path: String, bearer: String) async throws -> HTTPResult {
        var request = URLRequest(url: try #require(URL(string: origin + path)))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
        if method == "POST" { request.httpBody = Data("{}".utf8) }
        let (data, response) = try await session.data(for: request)
        return HTTPResult(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }
}
