import Foundation
import SCACore

extension SCAClient {
    /// How the SDK chooses and paces: method order, token refresh margin, waits.
    public struct Configuration: Sendable {
        /// The order in which methods are tried, which is also the order of categories: by default
        /// the device key (possession), then biometry (inherence), then what the user types
        /// (knowledge), then codes (possession). Methods not listed are never used.
        public var methodOrder: [AuthenticationMethod]
        /// Refresh the access token this long (seconds) before it expires.
        public var refreshMargin: TimeInterval
        /// Wait (seconds) when the server answers `429` without `Retry-After`, and the cap on any wait.
        public var maximumWait: TimeInterval
        /// Sent when a device is activated (`linux`, `ios`, `macos`).
        public var platform: String

        /// The default method order: device key, biometry, password, PIN, TOTP, SMS code, e-mail code.
        public static let defaultMethodOrder: [AuthenticationMethod] = [
            .deviceKey, .biometricKey, .passkey, .password, .pin, .totp, .smsOTP, .emailOTP,
        ]

        /// The platform this SDK was built for.
        public static var defaultPlatform: String {
            #if os(iOS)
            "ios"
            #elseif os(macOS)
            "macos"
            #elseif os(Linux)
            "linux"
            #else
            "other"
            #endif
        }

        /// - Parameters:
        ///   - methodOrder: methods in the order they are tried; unlisted methods are never used.
        ///   - refreshMargin: seconds before expiry at which the access token is refreshed.
        ///   - maximumWait: seconds to wait on a `429` without `Retry-After`, and the cap on waits.
        ///   - platform: the platform name sent on activation.
        public init(
            methodOrder: [AuthenticationMethod] = Configuration.defaultMethodOrder, refreshMargin: TimeInterval = 30,
            maximumWait: TimeInterval = 5, platform: String = Configuration.defaultPlatform
        ) {
            self.methodOrder = methodOrder
            self.refreshMargin = refreshMargin
            self.maximumWait = maximumWait
            self.platform = platform
        }
    }
}
