/// Where one-time codes go: the value of `messageSender`.
package enum MessageSenderKind: String, Sendable, CaseIterable {
    /// JSON lines in `outbox.jsonl` under the data directory (development, tests).
    case outbox
    /// A POST of each message as JSON to `webhookURL` (your SMS or mail gateway).
    case webhook
}
