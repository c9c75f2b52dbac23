extension ServerConfiguration {
    /// Background message delivery: a bounded number of attempts, a finite back-off
    /// and a bounded queue, so a dead gateway costs memory and time that are known in advance.
    func validateMessageDelivery() throws {
        guard (1...10).contains(messageDeliveryAttempts) else {
            throw ConfigurationError("messageDeliveryAttempts must be between 1 and 10, got \(messageDeliveryAttempts)")
        }
        guard messageRetryBackoff.isFinite, messageRetryBackoff >= 0, messageRetryBackoff <= 600 else {
            throw ConfigurationError("messageRetryBackoff must be between 0 and 600 seconds, got \(messageRetryBackoff)")
        }
        guard (1...1_000_000).contains(messageQueueLimit) else {
            throw ConfigurationError("messageQueueLimit must be between 1 and 1000000, got \(messageQueueLimit)")
        }
        guard messageGatewayTimeout.isFinite, messageGatewayTimeout >= 0.1, messageGatewayTimeout <= 600 else {
            throw ConfigurationError("messageGatewayTimeout must be between 0.1 and 600 seconds, got \(messageGatewayTimeout)")
        }
        guard (1...256).contains(messageDeliveryConcurrency) else {
            throw ConfigurationError("messageDeliveryConcurrency must be between 1 and 256, got \(messageDeliveryConcurrency)")
        }
    }
}
