import ServiceLifecycle

/// Runs `pass` now and then every `interval` until the task is cancelled or a graceful
/// shutdown begins (which ends the wait early): the loop of the server's periodic services.
/// `pass` handles its own errors: a failed pass is logged and the next one retries.
package func repeatUntilShutdown(every interval: Duration, _ pass: () async -> Void) async {
    while !Task.isCancelled && !Task.isShuttingDownGracefully {
        await pass()
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
    }
}
