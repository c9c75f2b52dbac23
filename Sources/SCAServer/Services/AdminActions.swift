import Foundation
import SCACore
import SCAStorage

/// The operator's user management, audited: the admin API and the `sca-server user`
/// commands call these, which call ``UserService`` and record what was done (the fields
/// changed, never their values).
public struct AdminActions: Sendable {
    let users: UserService
    let audit: AuditTrail

    /// - Throws: what ``UserService/create(_:)`` throws; nothing is recorded then.
    public func createUser(_ request: CreateUserRequest) async throws -> UserRecord {
        let user = try await users.create(request)
        var methods: [String] = []
        if request.password != nil { methods.append("password") }
        if request.pin != nil { methods.append("pin") }
        if request.phone != nil { methods.append("sms_otp") }
        if request.emailCodes == true { methods.append("email_otp") }
        await audit.record(.adminUserCreated, userID: user.id, details: ["methods": methods.joined(separator: ",")])
        return user
    }

    public func updateUser(userID: String, _ request: UpdateUserRequest) async throws -> UserRecord {
        let user = try await users.update(userID: userID, request)
        var fields: [String] = []
        if request.email != nil { fields.append("email") }
        if request.password != nil { fields.append("password") }
        if request.pin != nil { fields.append("pin") }
        if request.phone != nil { fields.append("phone") }
        if request.emailCodes != nil { fields.append("emailCodes") }
        await audit.record(.adminUserUpdated, userID: userID, details: ["fields": fields.joined(separator: ",")])
        return user
    }

    public func enrollTOTP(userID: String) async throws -> TOTPEnrollmentResponse {
        let enrollment = try await users.enrollTOTP(userID: userID)
        await audit.record(.adminTOTPEnrolled, userID: userID)
        return enrollment
    }

    public func unblock(userID: String) async throws {
        try await users.unblock(userID: userID)
        await audit.record(.adminUserUnblocked, userID: userID)
    }
}
