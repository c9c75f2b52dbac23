import Foundation

/// The pure moves of a webhook delivery: claim, then delivered or retried later with
/// back-off, then abandoned. Stores save the result by compare-and-set on `version`, so one
/// instance at a time sends a delivery.
extension WebhookDeliveryRecord {
    /// Waits after the 1st, 2nd, ... failed attempt; after the last one the delivery is abandoned.
    package static let backoff: [TimeInterval] = [5, 30, 120, 600, 3600]
    /// How long a claim keeps other instances off (longer than one attempt's timeout).
    package static let lease: TimeInterval = 60

    /// Whether it may be sent at `now`: pending, due, and not claimed by a live lease.
    package func isDue(now: Date) -> Bool {
        status == .pending && nextAttemptAt <= now && (leaseUntil.map { $0 <= now } ?? true)
    }

    /// Claims it for one attempt at `now`.
    /// - Returns: false, changing nothing, when it is not due.
    package mutating func claim(now: Date) -> Bool {
        guard isDue(now: now) else { return false }
        leaseUntil = now.addingTimeInterval(Self.lease)
        return true
    }

    /// An operator's retry at `now`: a delivery given up gets a whole new series of attempts,
    /// and one waiting out its back-off after a failure is due at once.
    /// - Returns: false, changing nothing, when it was delivered, is being sent now (a live
    ///   lease), or has not failed yet (it is due anyway).
    package mutating func retry(now: Date) -> Bool {
        switch status {
        case .delivered:
            return false
        case .pending:
            guard attempts > 0, leaseUntil.map({ $0 <= now }) ?? true else { return false }
        case .abandoned:
            status = .pending
            attempts = 0
            finishedAt = nil
        }
        leaseUntil = nil
        nextAttemptAt = now
        return true
    }

    /// Records one attempt's result at `now`: delivered on a 2xx, else the next attempt after
    /// the back-off, or abandoned when the back-off is used up.
    package mutating func record(httpStatus: Int?, now: Date) {
        attempts += 1
        lastHTTPStatus = httpStatus
        leaseUntil = nil
        if let httpStatus, (200..<300).contains(httpStatus) {
            status = .delivered
            finishedAt = now
        } else if attempts > Self.backoff.count {
            status = .abandoned
            finishedAt = now
        } else {
            nextAttemptAt = now.addingTimeInterval(Self.backoff[attempts - 1])
        }
    }
}
