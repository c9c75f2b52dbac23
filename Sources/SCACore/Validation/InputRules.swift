import Foundation

/// The shapes of user-supplied values, checked the same way by server and client.
/// Each check returns nil for a good value and a short reason otherwise.
package enum InputRules {
    package static let maxEmailLength = 254
    package static let passwordLength = 8...1024
    package static let pinLength = 4...12
    package static let maxCredentialLength = 1024
    package static let maxIDLength = 64

    /// Lower-cases and trims an e-mail address.
    package static func normalizedEmail(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespaces).lowercased()
    }

    package static func emailProblem(_ email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= maxEmailLength, parts.count == 2, !parts[0].isEmpty,
            parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.contains(where: { $0.isWhitespace || $0.isControlCharacter }),
            // An address is shown too (masked, in lists): nothing that reorders or hides text.
            !email.unicodeScalars.contains(where: { DisplayText.refusedKind($0) != nil })
        else { return "email must be an address such as name@example.com" }
        return nil
    }

    package static func passwordProblem(_ password: String) -> String? {
        passwordLength.contains(password.count) ? nil : "password must have 8 to 1024 characters"
    }

    package static func pinProblem(_ pin: String) -> String? {
        pinLength.contains(pin.count) && pin.allSatisfy(\.isASCIIDigit) ? nil : "pin must be 4 to 12 digits"
    }

    /// A phone number as typed (`+33 6 12-34.56 78`, `(+33) 612345678`) without its spaces,
    /// dashes, dots and brackets; check the result with ``phoneProblem(_:)``.
    package static func normalizedPhone(_ phone: String) -> String {
        String(phone.filter { !($0.isWhitespace || "-.()".contains($0)) })
    }

    /// E.164: `+` and 7 to 15 digits, not starting with 0.
    package static func phoneProblem(_ phone: String) -> String? {
        let digits = phone.dropFirst()
        guard phone.first == "+", (7...15).contains(digits.count), digits.first != "0",
            digits.allSatisfy(\.isASCIIDigit)
        else { return "phone must be in E.164 form, e.g. +33612345678" }
        return nil
    }

    /// Ids we issue: a short lower-case prefix, `_`, and base64url characters.
    ///
    /// Checked on the UTF-8 bytes, which is the same test (every allowed character is one ASCII
    /// byte, and any other character has a byte outside the set) without the Unicode property
    /// lookups of `Character`: every request naming an id pays for this check.
    package static func isWellFormedID(_ id: String, prefix: String) -> Bool {
        let bytes = id.utf8
        guard bytes.count <= maxIDLength, bytes.count > prefix.utf8.count + 1,
            bytes.starts(with: prefix.utf8), bytes[bytes.index(bytes.startIndex, offsetBy: prefix.utf8.count)] == UInt8(ascii: "_")
        else { return false }
        return bytes.dropFirst(prefix.utf8.count + 1).allSatisfy(isIDByte)
    }

    /// A base64url byte: an ASCII letter or digit, `-` or `_`.
    private static func isIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// Exactly `count` ASCII digits (checked on the bytes, as ``isWellFormedID(_:prefix:)``).
    package static func isDigits(_ value: String, count: Int) -> Bool {
        value.utf8.count == count && value.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIIAlphanumeric: Bool { isASCII && (isLetter || isNumber) }
    var isControlCharacter: Bool { unicodeScalars.contains { $0.properties.generalCategory == .control } }
}
