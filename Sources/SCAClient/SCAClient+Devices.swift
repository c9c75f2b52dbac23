import Foundation
import SCACore

extension SCAClient {
    /// Binds this device to the user who got the activation code: makes two P-256 keys, registers
    /// them with a proof of possession, and stores the binding.
    ///
    /// Any earlier binding and its keys are forgotten first: new keys cannot serve the old device.
    ///
    /// - Parameters:
    ///   - code: the activation code as typed (`XXXXX-XXXXX-XXXXX-XXXXX`; case, spaces and dashes
    ///     do not matter).
    ///   - name: a name for the device, shown in the user's device list.
    /// - Returns: the stored binding.
    /// - Throws: ``SCAClientError/server(_:)`` with `activation.code_invalid` for a mistyped code
    ///   (refused locally by its checksum, so it costs no try) or one the server refuses,
    ///   `device.limit_reached`, `request.invalid`; the key store's errors; `URLError`.
    public func activateDevice(code: String, name: String) async throws -> DeviceBinding {
        guard let activation = ActivationCode(code) else {
            throw SCAClientError.server(
                Problem(
                    status: 400, code: .activationCodeInvalid, title: "Activation code not valid",
                    detail: "The code is mistyped: its checksum does not match."))
        }
        try await keyStore.reset()
        let keys = try await keyStore.createKeys()
        let proof = try await keyStore.sign(DeviceSignature.activationPayload(for: activation), with: .possession)
        let request = RegisterDeviceRequest(
            activationCode: activation.description, name: name, platform: configuration.platform,
            possessionKey: Base64URL.encode(keys.possession), biometryKey: keys.biometry.map { Base64URL.encode($0) },
            proof: Base64URL.encode(proof))
        let registered: RegisteredDeviceResponse = try await transport.send(.post, "v1/devices", body: request)
        let binding = DeviceBinding(
            deviceId: registered.deviceId, userId: registered.userId, server: server, name: name,
            hasBiometryKey: keys.biometry != nil)
        try await keyStore.saveBinding(binding)
        return binding
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

    /// Asks for an activation code to bind another device, with the signed-in session (binding a
    /// device needs SCA, RTS art. 24). The server accepts each access token for this once; the
    /// SDK refreshes before the next call.
    ///
    /// - Returns: the code and its expiry.
    /// - Throws: ``SCAClientError/notSignedIn``; ``SCAClientError/server(_:)`` (`auth.forbidden`);
    ///   `URLError`.
    public func requestActivationCode() async throws -> ActivationCodeResponse {
        try await withAccessToken { token in
            let issued: ActivationCodeResponse = try await transport.send(.post, "v1/activations", bearer: token)
            try await session.markSpent(token)
            return issued
        }
    }
}
