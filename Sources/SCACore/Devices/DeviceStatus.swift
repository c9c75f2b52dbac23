/// The life of a bound device. `removed` is final.
public enum DeviceStatus: String, Codable, Sendable, CaseIterable {
    case active
    case blocked
    case removed
}
