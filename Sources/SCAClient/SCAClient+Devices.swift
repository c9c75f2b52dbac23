import Foundation
import SCACore

extension SCAClient {
    /// Binds this device to the user who got the activation code: makes two P-256 keys, registers
    /// them with a proof of possession, and stores the binding.
    ///
    /// An earlier binding stays until the server has accepted the new one: the new keys are made
    /// aside, and only a registered device replaces the old keys and binding, in one step. A
    /// refused code (wrong, used, expired) leaves the device bound as it was.
    ///
    /// - Parameters:
    ///   - code: the activation code as typed (`XXXXX-XXXXX-XXXXX-XXXXX`; case, spaces and dashes
    ///     do not matter).
    ///   - name: a name for the device, shown in the user's device list: 1 to 64 characters
    ///     under ``DisplayText``'s rule; its NFC form is sent and kept.
    /// - Returns: the stored binding.
    /// - Throws: ``SCAClientError/server(_:)`` with `activation.code_invalid` for a mistyped code
    ///   (refused locally by its checksum, so it costs no try) or one the server refuses,
    ///   `request.invalid` for a name the server would refuse (refused locally too),
    ///   `device.limit_reached`; the key store's errors; `URLError`.
    public func activateDevice(code: String, name: String) async throws -> DeviceBinding {
        guard let activation = ActivationCode(code) else {
            throw SCAClientError.server(
                Problem(
                    status: 400, code: .activationCodeInvalid, title: "Activation code not valid",
                    detail: "The code is mistyped: its checksum does not match."))
        }
        let (binding, _) = try await bindNewKeys(signing: DeviceSignature.activationPayload(for: activation), name: name) {
            pending, proof, deviceName in
            let request = RegisterDeviceRequest(
                activationCode: activation.description, name: deviceName, platform: configuration.platform,
                possessionKey: Base64URL.encode(pending.possession), biometryKey: pending.biometry.map { Base64URL.encode($0) },
                proof: Base64URL.encode(proof))
            let registered: RegisteredDeviceResponse = try await transport.send(.post, "v1/devices", body: request)
            return (registered.deviceId, registered.userId, registered)
        }
        return binding
    }

    /// Binds this device with new keys: checks the name as the server would, makes the keys
    /// aside, signs `payload` with the new possession key, and lets `register` send them. Only
    /// keys the server accepted replace the old keys and binding, in one step; a refusal
    /// leaves the device bound as it was.
    /// - Parameter register: sends the keys, the proof and the checked name; answers the new
    ///   device's id, its user's id and whatever else the server said.
    func bindNewKeys<Answer: Sendable>(
        signing payload: [UInt8], name: String,
        register: (_ pending: PendingDeviceKeys, _ proof: [UInt8], _ name: String) async throws
            -> (deviceId: String, userId: String, answer: Answer)
    ) async throws -> (binding: DeviceBinding, answer: Answer) {
        let deviceName: String
        switch DisplayText.normalized(name, field: "name", maxLength: DisplayText.maxDeviceNameLength) {
        case .success(let normalized): deviceName = normalized
        case .failure(let violation):
            throw SCAClientError.server(Problem(status: 400, code: .requestInvalid, title: "Invalid request", detail: violation.reason))
        }
        let pending = try await keyStore.createPendingKeys()
        do {
            let proof = try await keyStore.signWithPendingKey(payload, with: .possession, of: pending)
            let registered = try await register(pending, proof, deviceName)
            let binding = DeviceBinding(
                deviceId: registered.deviceId, userId: registered.userId, server: server, name: deviceName,
                hasBiometryKey: pending.biometry != nil)
            // Should this fail, the server has a device this phone cannot use: the user removes
            // it from the device list; the old binding still works.
            try await keyStore.commitPendingKeys(pending, binding: binding)
            return (binding, registered.answer)
        } catch {
            try? await keyStore.discardPendingKeys(pending)
            throw error
        }
    }

    /// The bound device's standing on the server: status and wrong signatures so far.
    ///
    /// - Returns: status, fail count and remaining attempts.
    /// - Throws: ``SCAClientError/deviceNotActivated`` without a binding;
    ///   ``SCAClientError/deviceRefused(_:)`` (`device.not_found`); `URLError`.
    public func deviceStatus() async throws -> DeviceStatusResponse {
        let binding = try await currentBinding()
        return try await transport.send(.get, "v1/devices/\(APITransport.escape(binding.deviceId))/status")
    }

    /// The signed-in user's devices.
    ///
    /// - Returns: every device of the user, removed ones included.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` (`auth.forbidden`
    ///   when the session's operation does not allow it); `URLError`.
    public func devices() async throws -> [DeviceResponse] {
        try await withAccessToken { token in try await transport.send(.get, "v1/devices", bearer: token) }
    }

    /// Removes one of the signed-in user's devices; it can never sign again. Removing this very
    /// device keeps its local binding: call ``DeviceKeyStore/reset()`` to forget it.
    ///
    /// - Parameter deviceID: the device to remove.
    /// - Returns: the device, now `removed`.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/deviceRefused(_:)``
    ///   (`device.not_found`); ``SCAClientError/server(_:)``; `URLError`.
    @discardableResult
    public func removeDevice(_ deviceID: String) async throws -> DeviceResponse {
        try await withAccessToken { token in try await transport.send(.delete, "v1/devices/\(APITransport.escape(deviceID))", bearer: token) }
    }

    /// Gives one of the signed-in user's devices the name they know it by.
    ///
    /// - Returns: the device with its new name.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` with
    ///   `request.invalid` (1 to 64 characters, no control characters) or `device.not_found`;
    ///   `URLError`.
    @discardableResult
    public func renameDevice(_ deviceID: String, to name: String) async throws -> DeviceResponse {
        try await withAccessToken { token in
            try await transport.send(
                .patch, "v1/devices/\(APITransport.escape(deviceID))", body: RenameDeviceRequest(name: name), bearer: token)
        }
    }

    /// Asks for an activation code to bind another device. Binding a device needs its own SCA
    /// (RTS art. 24), so this runs a `device_activation` challenge first, with the collector as
    /// any other challenge: for the bound user, naming this device so its keys may sign, or
    /// without a binding for the signed-in user with typed factors. Its token, good for one code,
    /// then asks for the code; the session's own tokens are not used for it.
    ///
    /// - Parameters:
    ///   - collector: asks the user.
    ///   - prefill: secrets already typed, used on their method's first try.
    /// - Returns: the code and its expiry.
    /// - Throws: ``SCAClientError/notSignedIn`` with neither a binding nor a session; otherwise as
    ///   ``authenticate(challenge:using:prefill:)``; ``SCAClientError/server(_:)`` for the
    ///   server's refusal of the code; `URLError`.
    public func requestActivationCode(
        using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> ActivationCodeResponse {
        let (user, device) = try await subject()
        let challenge = try await startChallenge(for: .deviceActivation, user: user, device: device)
        let tokens = try await authenticate(challenge: challenge, using: collector, prefill: prefill)
        return try await transport.send(.post, "v1/activations", bearer: tokens.accessToken)
    }

    /// Who a challenge is for: the bound device and its user when this server bound one, else
    /// the signed-in user without a device.
    /// - Throws: ``SCAClientError/notSignedIn`` with neither a binding nor a session.
    func subject() async throws -> (user: UserReference, device: DeviceReference?) {
        if let binding = try await keyStore.binding(), binding.isFor(server: server) {
            return (UserReference(userId: binding.userId), DeviceReference(deviceId: binding.deviceId))
        }
        return (UserReference(userId: try await session.signedInUserID()), nil)
    }
}
