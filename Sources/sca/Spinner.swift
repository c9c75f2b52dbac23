import Foundation
import Synchronization

/// A one-line spinner on standard error while the app waits for the server. It only runs when
/// a person watches (standard output and error are terminals), so scripted output stays clean.
final class Spinner: Sendable {
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private let enabled: Bool
    private let running = Mutex<Task<Void, Never>?>(nil)

    init(enabled: Bool = Terminal.outputIsTerminal) {
        self.enabled = enabled
    }

    /// Starts spinning with `message`, replacing any spinner already running.
    func start(_ message: String) async {
        guard enabled else { return }
        await stop()
        let task = Task.detached {
            // A short grace period: answers that come back at once cause no flicker.
            try? await Task.sleep(for: .milliseconds(150))
            var frame = 0
            while !Task.isCancelled {
                FileHandle.standardError.write(Data("\r\u{1B}[K\(Self.frames[frame % Self.frames.count]) \(message)".utf8))
                frame += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        running.withLock { $0 = task }
    }

    /// Stops the spinner and clears its line, before anything else is written.
    func stop() async {
        guard enabled, let task = running.withLock({ current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }) else { return }
        task.cancel()
        await task.value
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// Spins while `work` runs.
    func during<Value>(_ message: String, _ work: () async throws -> Value) async throws -> Value {
        await start(message)
        do {
            let value = try await work()
            await stop()
            return value
        } catch {
            await stop()
            throw error
        }
    }
}
