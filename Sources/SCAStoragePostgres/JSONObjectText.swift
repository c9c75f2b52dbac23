import Foundation
import SCACore

/// A JSON object written member by member, for a database function's argument
/// (`sca_commit_proof`): strings escaped as RFC 8785 writes them, numbers in Swift's shortest
/// form that reads back to the same `Double` (so a date compares equal once stored), bytes as
/// hex (`decode(…, 'hex')`). A nil value is written as `null`.
struct JSONObjectText {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    init() {
        bytes.reserveCapacity(512)
    }

    private mutating func name(_ name: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JCS.appendString(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func add(_ name: String, _ value: String?) {
        self.name(name)
        if let value { JCS.appendString(value, to: &bytes) } else { bytes += "null".utf8 }
    }

    mutating func add(_ name: String, _ value: Int64?) {
        self.name(name)
        bytes += (value.map { String($0) } ?? "null").utf8
    }

    mutating func add(_ name: String, _ value: Int?) {
        add(name, value.map(Int64.init))
    }

    mutating func add(_ name: String, _ value: Double?) {
        self.name(name)
        bytes += (value.map { "\($0)" } ?? "null").utf8
    }

    mutating func add(_ name: String, _ value: Date?) {
        add(name, value?.timeIntervalSince1970)
    }

    mutating func add(_ name: String, _ value: Bool) {
        self.name(name)
        bytes += (value ? "true" : "false").utf8
    }

    mutating func add(_ name: String, hex value: [UInt8]) {
        self.name(name)
        bytes.append(UInt8(ascii: "\""))
        let digits = Array("0123456789abcdef".utf8)
        for byte in value {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Another object as the member's value.
    mutating func add(_ name: String, _ object: JSONObjectText) {
        self.name(name)
        bytes += object.bytes
        bytes.append(UInt8(ascii: "}"))
    }

    var text: String {
        String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self)
    }
}
