/// Which of the device's two P-256 keys signs.
public enum DeviceKeyKind: String, Sendable {
    /// Proves possession (`device_key`): usable without user interaction.
    case possession
    /// Proves inherence (`biometric_key`): the platform unlocks it only after a biometric check.
    case biometry
}
