import Crypto
import Foundation
import Logging
import SCACore
import SCAStorage

/// Binding devices to users: activation codes, registration with proof of possession of the
/// key, and the device's life (active, blocked, removed).
package struct DeviceService: EngineService, Sendable {
    package let context: EngineContext
    /// A device bound is alerted to its user on every channel.
    let alerts: SecurityAlerts

    /// Issues a single-use activation code for `userID`.
    /// - Throws: `Problem.userNotFound`.
    package func issueActivationCode(for userID: String) async throws -> ActivationCodeResponse {
        guard try await store.user(id: userID) != nil else { throw Problem.userNotFound }
        let now = runtime.now()
        let expiresAt = now.addingTimeInterval(TimeInterval(configuration.activationCodeLifetime))
        // The first group identifies the code; a clash with another live code is rare (25 bits)
        // and simply means drawing again.
        for _ in 0..<8 {
            let code = ActivationCode.generate(using: runtime.random)
            let record = ActivationCodeRecord(
                lookupID: code.lookupID, codeHash: hash(code), userID: userID, createdAt: now, expiresAt: expiresAt)
            do {
                try await store.createActivationCode(record, maximumTries: configuration.activationCodeMaxTries)
                logger.info("activation code issued", metadata: ["user": "\(userID)"])
                await audit.record(.activationCodeIssued, userID: userID)
                return ActivationCodeResponse(activationCode: code.description, expiresAt: expiresAt)
            } catch StoreError.conflict {
                continue
            } catch StoreError.notFound {
                throw Problem.userNotFound  // removed meanwhile
            }
        }
        throw Problem.contention
    }

    /// Registers a device: checks every field and the proof of possession before the code is
    /// touched, so bad input writes nothing.
    /// - Throws: `Problem` 400 (`request.invalid`, `device.proof_invalid`, `activation.code_invalid`),
    ///   409 `device.limit_reached`.
    package func register(_ request: RegisterDeviceRequest) async throws -> RegisteredDeviceResponse {
        guard let code = ActivationCode(request.activationCode) else { throw Problem.activationCodeInvalid() }
        // The owner sees name and platform in the device list: the display-text rule applies,
        // and the NFC form is what is stored.
        let name = try Self.displayText(request.name, field: "name", maxLength: DisplayText.maxDeviceNameLength)
        let platform = try Self.displayText(request.platform, field: "platform", maxLength: DisplayText.maxPlatformLength)
        let possessionKey = try Self.publicKey(request.possessionKey, field: "possessionKey")
        let biometryKey = try request.biometryKey.map { try Self.publicKey($0, field: "biometryKey") }
        guard let proof = Base64URL.decode(request.proof), proof.count == 64 else {
            throw Problem.invalidRequest("proof must be a 64-byte raw ECDSA signature in base64url")
        }
        guard DeviceSignature.isValid(signature: proof, over: DeviceSignature.activationPayload(for: code), publicKey: possessionKey) else {
            throw Problem.deviceProofInvalid
        }
        let now = runtime.now()
        let candidate = DeviceRecord(
            id: runtime.makeID(prefix: "dev"), userID: "", name: name, platform: platform,
            possessionKey: possessionKey, biometryKey: biometryKey, createdAt: now)
        let registration: DeviceRegistration
        do {
            registration = try await store.registerDevice(
                candidate, lookupID: code.lookupID, codeHash: hash(code), now: now,
                maximumTries: configuration.activationCodeMaxTries, maximumDevices: configuration.maxDevicesPerUser)
        } catch StoreError.conflict {
            throw Problem.contention  // a device id drawn twice: the code is still unused, retry
        }
        switch registration {
        case .registered(let device):
            logger.info("device activated", metadata: ["user": "\(device.userID)", "device": "\(device.id)"])
            await audit.record(
                .deviceActivated, userID: device.userID, deviceID: device.id,
                details: ["platform": device.platform, "biometryKey": device.biometryKey == nil ? "no" : "yes"])
            if let owner = try? await store.user(id: device.userID) {
                await alerts.send(.deviceBound(name: device.name), to: owner)
            }
            return RegisteredDeviceResponse(deviceId: device.id, userId: device.userID, status: device.status)
        case .codeInvalid: throw Problem.activationCodeInvalid()
        case .codeWrong(let remaining): throw Problem.activationCodeInvalid(remaining: remaining)
        case .deviceLimitReached: throw Problem.deviceLimitReached
        }
    }

    /// - Throws: `Problem.deviceNotFound`.
    package func status(of deviceID: String) async throws -> DeviceStatusResponse {
        let device = try await find(deviceID)
        let maximum = configuration.maxDeviceFailures
        return DeviceStatusResponse(
            status: device.status, failCount: device.failCount, maxFailCount: maximum,
            remainingAttempts: device.status == .active ? max(0, maximum - device.failCount) : 0)
    }

    package func devices(of userID: String) async throws -> [DeviceResponse] {
        try await store.devices(userID: userID).map(Self.describe)
    }

    /// An operator's or the owner's decision. Removing is final.
    /// - Parameter owner: when given, the device must belong to this user.
    /// - Throws: `Problem.deviceNotFound`.
    @discardableResult
    package func setStatus(of deviceID: String, to status: DeviceStatus, owner: String? = nil) async throws -> DeviceResponse {
        let device = try await find(deviceID)
        guard owner == nil || device.userID == owner else { throw Problem.deviceNotFound }
        guard let updated = try await store.setDeviceStatus(id: device.id, to: status) else { throw Problem.deviceNotFound }
        logger.info("device status changed", metadata: ["device": "\(device.id)", "status": "\(updated.status.rawValue)"])
        let event: AuditEvent
        switch status {
        case .active: event = .deviceUnblocked
        case .blocked: event = .deviceBlocked
        case .removed: event = .deviceRemoved
        }
        await audit.record(
            event, outcome: updated.status == status ? "success" : "unchanged", userID: device.userID,
            deviceID: device.id, details: ["from": device.status.rawValue, "to": updated.status.rawValue])
        return Self.describe(updated)
    }

    /// The owner's new name for one of their devices, checked as a bound device's name is.
    /// Renaming gives no power, so it needs no confirmation of its own; it is audited with
    /// neither name (names are the user's words).
    /// - Throws: `Problem.invalidRequest` for a name that is empty, too long or holds control
    ///   characters (nothing changes); `Problem.deviceNotFound`, also for another user's.
    package func rename(_ deviceID: String, to name: String, owner: String) async throws -> DeviceResponse {
        // Spaces around a typed name are the form's, not the name's.
        let name = try Self.displayText(
            name.trimmingCharacters(in: .whitespaces), field: "name", maxLength: DisplayText.maxDeviceNameLength)
        let device = try await find(deviceID)
        guard device.userID == owner, device.status != .removed,
            let renamed = try await store.renameDevice(id: device.id, to: name)
        else { throw Problem.deviceNotFound }
        await audit.record(.deviceRenamed, userID: owner, deviceID: device.id)
        return Self.describe(renamed)
    }

    func find(_ deviceID: String) async throws -> DeviceRecord {
        guard InputRules.isWellFormedID(deviceID, prefix: "dev"), let device = try await store.device(id: deviceID) else {
            throw Problem.deviceNotFound
        }
        return device
    }

    static func describe(_ device: DeviceRecord) -> DeviceResponse {
        DeviceResponse(
            deviceId: device.id, name: device.name, platform: device.platform, status: device.status,
            hasBiometryKey: device.biometryKey != nil, failCount: device.failCount, createdAt: device.createdAt,
            lastUsedAt: device.lastUsedAt)
    }

    private func hash(_ code: ActivationCode) -> [UInt8] {
        box.mac(Array(code.description.utf8), purpose: "activation-code")
    }

    /// The NFC form of a text the user will be shown.
    /// - Throws: `Problem.invalidRequest` naming the field.
    static func displayText(_ text: String, field: String, maxLength: Int) throws -> String {
        switch DisplayText.normalized(text, field: field, maxLength: maxLength) {
        case .success(let normalized): return normalized
        case .failure(let violation): throw Problem.invalidRequest(violation.reason)
        }
    }

    static func publicKey(_ text: String, field: String) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(text) else { throw Problem.invalidRequest("\(field) must be base64url") }
        if let problem = DeviceSignature.publicKeyProblem(bytes) { throw Problem.invalidRequest("\(field): \(problem)") }
        return bytes
    }
}
