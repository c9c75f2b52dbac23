import SCACore

// Decoupled operations.
extension SCAServices {
    var operations: OperationService {
        OperationService(
            store: store, challenges: challenges, box: box, runtime: runtime, audit: audit, logger: logger,
            messages: challenges.codes.messages, webhooks: webhooks, neutralPushText: configuration.pushNeutralText)
    }

    var deviceRequests: DeviceRequestAuthenticator {
        DeviceRequestAuthenticator(store: store, box: box, runtime: runtime, audit: audit)
    }

    /// CIBA poll mode over operations.
    func cibaRoutes<Context>() -> CIBARoutes<Context> {
        CIBARoutes(
            oauth: oauth,
            ciba: CIBAService(
                store: store, tokens: tokens, box: box, configuration: configuration, runtime: runtime, audit: audit),
            operations: operations, maxBodySize: configuration.maxBodySize)
    }

    func operationRoutes<Context>() -> OperationRoutes<Context> {
        OperationRoutes(
            operations: operations, devices: deviceRequests, access: adminAccess, store: store,
            maxBodySize: configuration.maxBodySize)
    }
}

// For `sca-server operation`: an operator's own operations, as the admin key's would be.
extension SCAServices {
    /// Creates an operation as an admin caller (`POST /v1/operations`).
    /// - Throws: as the route does, as `Problem`.
    public func createOperation(_ request: CreateOperationRequest) async throws -> OperationResponse {
        try await operations.create(request, by: .admin)
    }

    /// An operation's status and, once approved, its token (`GET /v1/operations/{id}`).
    public func operation(id: String) async throws -> OperationResponse {
        try await operations.get(id, by: .admin)
    }
}
