import Foundation
import PostgresNIO
import SCAStorage
import SCAStoragePostgres
import Testing

/// The proof's commit in one statement (issue 14, `v3-proof-fold`): the function lists the
/// challenge's columns itself, so a column added to the table later must be added to it too.
@Suite(
    "PostgresStore proof fold",
    .enabled(if: PostgresTestDatabase.url != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL"))
struct PostgresProofFoldTests {
    @Test("sca_commit_proof writes every column of a challenge")
    func foldWritesEveryChallengeColumn() async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            _ = try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
            let columns = try await PostgresTestDatabase.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'challenges'",
                url: url
            ).map { try $0.decode(String.self) }
            let definition = try #require(
                try await PostgresTestDatabase.execute("SELECT pg_get_functiondef('sca_commit_proof'::regproc)", url: url).first
            ).decode(String.self)
            #expect(columns.count > 20)
            for column in columns where column != "id" {
                #expect(definition.contains("\(column) = next.\(column)"), "challenges.\(column) is not written by the fold")
            }
        }
    }
}
