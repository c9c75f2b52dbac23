// Background message delivery.
extension SCAServices {
    /// Runs `body` while the messages it causes are delivered in the background; afterwards
    /// waits (at most `drainTimeout`) until those submitted are delivered or given up, then
    /// stops delivering. For work that uses the services once (an admin command that creates an
    /// operation pushes to the device) and for tests' servers; `serve` runs
    /// ``MessageDeliveries`` in its service group instead. The queue stays open: it may run again.
    public func withMessageDeliveries<Result>(
        drainTimeout: Duration = .seconds(10), _ body: () async throws -> Result
    ) async throws -> Result {
        let dispatcher = messages
        let loop = Task { await dispatcher.run() }
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await dispatcher.waitUntilIdle() }
            group.addTask { try? await Task.sleep(for: drainTimeout) }
            await group.next()
            // A cancelled loop gives up what is left, which lets the idle wait above end too.
            loop.cancel()
            group.cancelAll()
        }
        await loop.value
        return try result.get()
    }
}
