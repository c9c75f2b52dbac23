import Logging
import Synchronization

/// Every line logged through its loggers, kept in memory and rendered as text (level, label,
/// message, then all metadata: the handler's, the metadata provider's and the call's), so a
/// test can search what an operator would read.
final class LogCapture: Sendable {
    /// One captured line: the message and its merged metadata.
    struct Line: Sendable {
        var level: Logger.Level
        var label: String
        var message: String
        var metadata: [String: String]

        /// The line as a log file would show it.
        var rendered: String {
            let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            return "\(level) \(label): \(message) \(pairs)"
        }
    }

    private let lines = Mutex<[Line]>([])

    /// What was logged so far, in order.
    var captured: [Line] { lines.withLock { $0 } }

    /// A logger at `trace` writing here, with `provider` (the server's, in these tests).
    func logger(label: String, metadataProvider provider: Logger.MetadataProvider? = nil) -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, capture: self, metadataProvider: provider) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: Line) {
        lines.withLock { $0.append(line) }
    }

    /// The swift-log side: merges metadata the way `StreamLogHandler` does (handler, then
    /// provider, then the call's, later ones winning).
    private struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var metadataProvider: Logger.MetadataProvider?
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        init(label: String, capture: LogCapture, metadataProvider: Logger.MetadataProvider?) {
            self.label = label
            self.capture = capture
            self.metadataProvider = metadataProvider
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            merged.merge(metadataProvider?.get() ?? [:]) { _, new in new }
            merged.merge(event.metadata ?? [:]) { _, new in new }
            if let error = event.error { merged["error"] = .string(String(describing: error)) }
            capture.append(
                Line(
                    level: event.level, label: label, message: event.message.description,
                    metadata: merged.mapValues { $0.description }))
        }
    }
}
