import Foundation
import PostgresNIO
import SCAStorage
import SCAStoragePostgres
import Testing

/// The proof's commit in one statement (`v15-one-proof-function`, after `v3-proof-fold` and its
/// wrappers): the function lists the challenge's and the consent's columns itself, so a column
/// added to either table later must be added to it too. A column written at insert only (the
/// challenge's delegation) is named as such.
@Suite(
    "PostgresStore proof fold",
    .enabled(if: PostgresTestDatabase.url != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL"))
struct PostgresProofFoldTests {
    @Test("sca_commit_proof writes every column of a challenge and of the consent it accepts, in one function")
    func foldWritesEveryChallengeColumn() async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            _ = try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
            func columns(of table: String) async throws -> [String] {
                try await PostgresTestDatabase.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table)'",
                    url: url
                ).map { try $0.decode(String.self) }
            }
            let fold = try #require(
                try await PostgresTestDatabase.execute("SELECT pg_get_functiondef('sca_commit_proof'::regproc)", url: url).first
            ).decode(String.self)
            let others = try await PostgresTestDatabase.execute(
                "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema() AND p.proname LIKE 'sca_commit_proof_%'",
                url: url
            ).map { try $0.decode(Int64.self) }
            #expect(others == [0], "the fold's earlier layers are gone")
            #expect(fold.contains("proof::jsonb"), "the argument is parsed once")
            #expect(fold.contains("client_id) VALUES") || fold.contains("revoked_at, client_id)"), "the session names its client")

            let challengeColumns = try await columns(of: "challenges")
            #expect(challengeColumns.count > 20)
            // Set when the challenge is inserted and never changed, so no proof writes it.
            let insertedOnly: Set<String> = ["id", "delegation_json"]
            for column in challengeColumns where !insertedOnly.contains(column) {
                #expect(
                    fold.contains("\(column) = next.\(column)") || fold.contains("\(column) = coalesce("),
                    "challenges.\(column) is not written by the fold")
            }
            let consentColumns = try await columns(of: "consents")
            #expect(consentColumns.count > 10)
            for column in consentColumns where column != "id" {
                #expect(
                    fold.contains("\(column) = accepted.\(column)") || fold.contains("\(column) = decode("),
                    "consents.\(column) is not written by the fold")
            }
        }
    }
}
