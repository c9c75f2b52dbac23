import Foundation

/// Time-based one-time passwords (RFC 6238) with T0 = 0: the codes of authenticator apps.
package struct TOTP: Sendable {
    /// The shared seed.
    package let secret: [UInt8]
    /// Length of a code.
    package let digits: Int
    /// Length of a time step, in seconds.
    package let period: Int
    /// The HMAC hash.
    package let algorithm: OTPAlgorithm

    /// - Parameters:
    ///   - secret: The shared seed; RFC 4226 asks for at least 128 bits, 160 recommended.
    ///   - digits: Length of a code, 1 through 10.
    ///   - period: Length of a time step, in seconds.
    ///   - algorithm: The HMAC hash.
    /// - Precondition: `digits` is in `1...10` and `period` is positive.
    package init(secret: [UInt8], digits: Int = 6, period: Int = 30, algorithm: OTPAlgorithm = .sha1) {
        precondition((1...HOTP.maximumDigits).contains(digits), "TOTP digits must be 1 through 10")
        precondition(period > 0, "TOTP period must be positive")
        self.secret = secret
        self.digits = digits
        self.period = period
        self.algorithm = algorithm
    }

    /// The time step that contains `date`: `floor(unixTime / period)`.
    package func step(at date: Date) -> Int64 {
        let step = (date.timeIntervalSince1970 / Double(period)).rounded(.down)
        // Clamp rather than trap on dates that no clock produces.
        if step.isNaN { return 0 }
        if step >= 9.2e18 { return .max }
        if step <= -9.2e18 { return .min }
        return Int64(step)
    }

    /// The code shown by an authenticator at `date`.
    package func code(at date: Date) -> String {
        code(forStep: step(at: date))
    }

    /// The code of time step `step`.
    package func code(forStep step: Int64) -> String {
        HOTP.code(
            secret: secret, counter: UInt64(truncatingIfNeeded: step), digits: digits, algorithm: algorithm)
    }

    /// Finds the time step whose code equals `code`, allowing for clock drift.
    ///
    /// Every candidate is computed and compared in constant time, with no early exit, so the
    /// time taken says nothing about which step matched or how closely. When several steps
    /// match (a chance collision), the latest one is returned: burning it keeps the code from
    /// being replayed within the window.
    ///
    /// - Parameters:
    ///   - code: The code the user typed.
    ///   - date: Now.
    ///   - drift: How many steps either side of the current one to accept; negative counts as 0.
    /// - Returns: The matching step, or nil when none matches or `code` is not exactly
    ///   `digits` ASCII digits.
    package func matchingStep(for code: String, at date: Date, drift: Int = 1) -> Int64? {
        let typed = Array(code.utf8)
        guard typed.count == digits, typed.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let current = step(at: date)
        let drift = max(0, drift)
        var match: Int64?
        for offset in -drift...drift {
            let (candidate, overflow) = current.addingReportingOverflow(Int64(offset))
            if overflow { continue }
            if ConstantTime.equals(Array(self.code(forStep: candidate).utf8), typed) {
                match = candidate
            }
        }
        return match
    }

    /// The provisioning URI that authenticator apps read from a QR code (the Key Uri Format),
    /// e.g. `otpauth://totp/ACME:alice%40example.com?secret=…&issuer=ACME&algorithm=SHA1&digits=6&period=30`.
    ///
    /// Issuer and account are percent-encoded (everything but RFC 3986 unreserved characters),
    /// so a `:` inside them cannot be taken for the label's separator.
    package static func otpauthURI(
        secret: [UInt8], account: String, issuer: String, digits: Int = 6, period: Int = 30,
        algorithm: OTPAlgorithm = .sha1
    ) -> String {
        let issuer = percentEncode(issuer)
        return "otpauth://totp/\(issuer):\(percentEncode(account))?secret=\(Base32.encode(secret))"
            + "&issuer=\(issuer)&algorithm=\(algorithm.rawValue)&digits=\(digits)&period=\(period)"
    }

    /// Reads an otpauth URI back, or a bare Base32 seed (spaces allowed, as people type them
    /// from a screen) with the defaults: 6 digits, 30 seconds, SHA-1.
    ///
    /// - Returns: nil when the text is neither, the seed is empty, or a parameter is out of
    ///   range (digits 6...10, period 1...3600, a known algorithm).
    package static func parse(_ uriOrSecret: String) -> TOTP? {
        let prefix = "otpauth://totp/"
        guard uriOrSecret.prefix(prefix.count).lowercased() == prefix else {
            let compact = uriOrSecret.filter { $0 != " " }
            guard let secret = Base32.decode(compact), !secret.isEmpty else { return nil }
            return TOTP(secret: secret)
        }
        let rest = uriOrSecret.dropFirst(prefix.count)
        guard let questionMark = rest.firstIndex(of: "?") else { return nil }
        var parameters: [String: String] = [:]
        for pair in rest[rest.index(after: questionMark)...].split(separator: "&") {
            guard let equals = pair.firstIndex(of: "="),
                let value = percentDecode(pair[pair.index(after: equals)...])
            else { return nil }
            let name = pair[..<equals].lowercased()
            guard parameters[name] == nil else { return nil }
            parameters[name] = value
        }
        guard let encodedSecret = parameters["secret"], let secret = Base32.decode(encodedSecret),
            !secret.isEmpty
        else { return nil }
        var algorithm = OTPAlgorithm.sha1
        if let name = parameters["algorithm"] {
            guard let named = OTPAlgorithm(rawValue: name.uppercased()) else { return nil }
            algorithm = named
        }
        var digits = 6
        if let text = parameters["digits"] {
            guard let value = Int(text), (6...HOTP.maximumDigits).contains(value) else { return nil }
            digits = value
        }
        var period = 30
        if let text = parameters["period"] {
            guard let value = Int(text), (1...3600).contains(value) else { return nil }
            period = value
        }
        return TOTP(secret: secret, digits: digits, period: period, algorithm: algorithm)
    }

    private static func percentEncode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// nil on a broken `%` escape or on bytes that are not UTF-8.
    private static func percentDecode(_ text: Substring) -> String? {
        let input = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%") {
                guard index + 2 < input.count,
                    let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(input[index])
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
