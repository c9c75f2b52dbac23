import Foundation

/// What ties this device to a user on a server, kept by the ``DeviceKeyStore`` next to the keys.
public struct DeviceBinding: Codable, Sendable, Equatable {
    /// The id the server gave the device (`dev_…`).
    public var deviceId: String
    /// The user the device belongs to (`usr_…`): a cold start names the user by it.
    public var userId: String
    /// The server the device was activated with; the binding is used only with that server.
    public var server: URL
    /// The name the user gave the device.
    public var name: String
    /// Whether a biometry-gated key was registered (inherence).
    public var hasBiometryKey: Bool

    /// - Parameters:
    ///   - deviceId: the server's id of the device.
    ///   - userId: the owner's user id.
    ///   - server: the server's base URL.
    ///   - name: the device's display name.
    ///   - hasBiometryKey: whether a biometry key was registered.
    public init(deviceId: String, userId: String, server: URL, name: String, hasBiometryKey: Bool) {
        self.deviceId = deviceId
        self.userId = userId
        self.server = server
        self.name = name
        self.hasBiometryKey = hasBiometryKey
    }

    /// Whether the binding was made with `other`, ignoring a trailing slash.
    func isFor(server other: URL) -> Bool {
        Self.normalized(server) == Self.normalized(other)
    }

    private static func normalized(_ url: URL) -> String {
        var text = url.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text.lowercased()
    }
}
