import SCACore
import SCAEngine

// For `sca-server operation`: an operator's own operations, as the admin key's would be.
extension SCAServices {
    /// Creates an operation as an admin caller (`POST /v1/operations`).
    /// - Throws: as the route does, as `Problem`.
    package func createOperation(_ request: CreateOperationRequest) async throws -> OperationResponse {
        try await engine.operations.create(request, by: .admin)
    }

    /// An operation's status and, once approved, its token (`GET /v1/operations/{id}`).
    package func operation(id: String) async throws -> OperationResponse {
        try await engine.operations.get(id, by: .admin)
    }
}
