// Decoupled operations (issue 10).
extension SCAServices {
    var operations: OperationService {
        OperationService(store: store, challenges: challenges, box: box, runtime: runtime, audit: audit, logger: logger)
    }

    var deviceRequests: DeviceRequestAuthenticator {
        DeviceRequestAuthenticator(store: store, box: box, runtime: runtime, audit: audit)
    }

    func operationRoutes<Context>() -> OperationRoutes<Context> {
        OperationRoutes(
            operations: operations, devices: deviceRequests, access: adminAccess, store: store,
            maxBodySize: configuration.maxBodySize)
    }
}
