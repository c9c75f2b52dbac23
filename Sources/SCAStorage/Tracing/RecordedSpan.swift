import Tracing

/// An open span as the code inside it sees it: attributes are ids and outcomes only, never a
/// credential, a code, a token, an address, an e-mail or a phone number. Without a tracer
/// every call does nothing.
package struct RecordedSpan: Sendable {
    let span: (any Span)?

    /// Sets the attribute `key` (dotted, lower case: `sca.challenge_id`).
    package func set(_ key: String, _ value: String?) {
        guard let span, let value else { return }
        span.attributes[key] = value
    }

    /// Sets the attribute `key` to a number.
    package func set(_ key: String, _ value: Int?) {
        guard let span, let value else { return }
        span.attributes[key] = value
    }

    /// Sets the attribute `key` to a flag.
    package func set(_ key: String, _ value: Bool?) {
        guard let span, let value else { return }
        span.attributes[key] = value
    }

    /// Renames the span, once what it served is known (a request's matched route).
    package func rename(_ name: String) {
        span?.operationName = name
    }

    /// Marks the span failed by `error`'s type alone: its text may quote the input.
    package func fail(_ error: any Error) {
        guard let span else { return }
        let type = String(describing: Swift.type(of: error))
        span.attributes["error.type"] = type
        span.setStatus(SpanStatus(code: .error, message: type))
    }

    /// Marks the span failed with a fixed description (an HTTP status of 5xx, a refused call).
    package func fail(reason: String) {
        guard let span else { return }
        span.attributes["error.type"] = reason
        span.setStatus(SpanStatus(code: .error, message: reason))
    }
}

extension RecordedSpan {
    /// Names the store operation a transaction serves (`consumeChallenge`, from the Swift
    /// function `consumeChallenge(_:at:)`) and the database behind it.
    package func describeStoreOperation(_ function: String, system: String) {
        set("db.system.name", system)
        set("sca.store.operation", String(function.prefix { $0 != "(" }))
    }
}
