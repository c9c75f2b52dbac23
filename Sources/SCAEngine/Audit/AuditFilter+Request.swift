import Foundation
import SCACore
import SCAStorage

extension AuditFilter {
    /// The filter a reader asked for, each field checked: an empty field is no condition.
    /// - Throws: 400 `request.invalid` naming the field: a user id that is not one of ours, an
    ///   event the trail does not record, or a range that ends before it starts.
    package static func checked(userID: String?, event: String?, from: Date?, to: Date?) throws -> AuditFilter {
        let userID = userID.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        let event = event.flatMap { $0.isEmpty ? nil : $0 }
        if let userID, !InputRules.isWellFormedID(userID, prefix: "usr") {
            throw Problem.invalidRequest("userId must be a user id (usr_…)")
        }
        if let event, AuditEvent(rawValue: event) == nil {
            throw Problem.invalidRequest("event must be an event the audit trail records")
        }
        if let from, let to, to <= from {
            throw Problem.invalidRequest("to must be after from")
        }
        return AuditFilter(userID: userID, event: event, from: from, to: to)
    }

    /// An RFC 3339 time, with or without fractions of a second.
    package static func time(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
