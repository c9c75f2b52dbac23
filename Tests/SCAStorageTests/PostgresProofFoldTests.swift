import Foundation
import PostgresNIO
import SCAStorage
import SCAStoragePostgres
import Testing

/// The proof's commit in one statement (`v3-proof-fold`): the function lists the
/// challenge's columns itself, so a column added to the table later must be added to it too,
/// or written by the wrapper a later step put around it (`v3-challenge-signatures`). A column
/// written at insert only (the delegation) is named as such. The wrappers nest: the consent's
/// (`v15-consent-in-proof`) runs the delegated sessions' (`v4-delegated-tokens`), which runs
/// the signatures', which runs the fold.
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
            func definition(_ function: String) async throws -> String {
                try #require(
                    try await PostgresTestDatabase.execute("SELECT pg_get_functiondef('\(function)'::regproc)", url: url).first
                ).decode(String.self)
            }
            let fold = try await definition("sca_commit_proof_v3")
            let signatures = try await definition("sca_commit_proof_v3_signatures")
            let delegated = try await definition("sca_commit_proof_v4_delegated")
            let wrapper = try await definition("sca_commit_proof")
            #expect(signatures.contains("sca_commit_proof_v3(proof, entries)"), "the signatures' wrapper runs the fold")
            #expect(delegated.contains("sca_commit_proof_v3_signatures(proof, entries)"), "the sessions' wrapper runs the signatures'")
            #expect(delegated.contains("SET client_id = "), "the sessions' wrapper names the session's client")
            #expect(wrapper.contains("sca_commit_proof_v4_delegated(proof, entries)"), "the outer wrapper runs the sessions' as it was")
            #expect(wrapper.contains("sca_commit_proof_v4_delegated(proof, NULL)"), "or without its entries, before the consent's row")
            #expect(columns.count > 20)
            // Set when the challenge is inserted and never changed, so no proof writes it.
            let insertedOnly: Set<String> = ["id", "delegation_json"]
            for column in columns where !insertedOnly.contains(column) {
                #expect(
                    fold.contains("\(column) = next.\(column)") || signatures.contains("SET \(column) = "),
                    "challenges.\(column) is not written by the fold")
            }
        }
    }
}
