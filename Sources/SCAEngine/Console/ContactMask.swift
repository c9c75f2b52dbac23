/// How the console shows an e-mail address or phone number to an operator without the reveal
/// permission: enough to match what the caller says, not enough to contact them.
package enum ContactMask {
    /// `alice@example.com` → `a•••@example.com`.
    package static func email(_ address: String) -> String {
        guard let at = address.firstIndex(of: "@"), at > address.startIndex else { return "•••" }
        return String(address[address.startIndex]) + "•••" + address[at...]
    }

    /// `+41791234567` → `+41•••••••67`: the country code and the last two digits.
    package static func phone(_ number: String) -> String {
        let characters = Array(number)
        guard characters.count > 5 else { return "•••" }
        return String(characters.prefix(3)) + String(repeating: "•", count: characters.count - 5) + String(characters.suffix(2))
    }
}
