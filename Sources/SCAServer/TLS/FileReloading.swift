import SCAEngine
import ServiceLifecycle
import UnixSignals

/// Runs `reload` every `interval` and at each SIGHUP (`announce` first, for the log), until a
/// graceful shutdown: how the TLS files are read again without a restart.
func reloadUntilShutdown(
    every interval: Duration, announce: @escaping @Sendable () -> Void = {}, _ reload: @escaping @Sendable () -> Void
) async {
    await withTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
                announce()
                reload()
            }
        }
        tasks.addTask {
            await repeatUntilShutdown(every: interval) { reload() }
        }
    }
}
