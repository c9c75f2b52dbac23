import Foundation
import SCACore

/// The parsers of configuration values, shared by the rows of `ConfigurationSetting.all`. Each
/// takes the text and the key it was given for, and throws `ConfigurationError` naming the key.
enum ConfigurationParser {
    static func integer(_ value: String, key: String) throws -> Int {
        guard let number = Int(value.trimmingCharacters(in: .whitespaces)) else {
            throw ConfigurationError("\(key) must be a whole number, got \"\(value)\"")
        }
        return number
    }

    static func boolean(_ value: String, key: String) throws -> Bool {
        switch value.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw ConfigurationError("\(key) must be true or false, got \"\(value)\"")
        }
    }

    /// A number of seconds, fractions allowed.
    static func seconds(_ value: String, key: String) throws -> Double {
        guard let seconds = Double(value.trimmingCharacters(in: .whitespaces)) else {
            throw ConfigurationError("\(key) must be a number of seconds, got \"\(value)\"")
        }
        return seconds
    }

    /// A fraction from 0 to 1 (`0.25`).
    static func ratio(_ value: String, key: String) throws -> Double {
        guard let ratio = Double(value.trimmingCharacters(in: .whitespaces)), ratio.isFinite, (0...1).contains(ratio) else {
            throw ConfigurationError("\(key) must be a number from 0 to 1, got \"\(value)\"")
        }
        return ratio
    }

    /// A comma-separated list of method ids: `password,sms_otp`.
    static func methods(_ value: String, key: String) throws -> [AuthenticationMethod] {
        try value.split(separator: ",").map {
            let id = $0.trimmingCharacters(in: .whitespaces)
            guard let method = AuthenticationMethod(rawValue: id) else { throw ConfigurationError("\(key): unknown method \(id)") }
            return method
        }
    }

    /// One of the raw values of `Choice`, listed in the error otherwise.
    static func choice<Choice: RawRepresentable & CaseIterable>(_ value: String, key: String) throws -> Choice
    where Choice.RawValue == String {
        guard let choice = Choice(rawValue: value.trimmingCharacters(in: .whitespaces)) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: " or ")
            throw ConfigurationError("\(key) must be \(names), got \"\(value)\"")
        }
        return choice
    }
}
