/// An IBAN as a person reads and compares it: groups of four, `FR76 3000 6000 0112 3456 7890 189`.
/// The same in every language (ISO 13616's paper format), so it is not in the catalogue.
package enum IBANFormat {
    /// The IBAN in groups of four, whatever spacing and case it came with.
    package static func grouped(_ iban: String) -> String {
        let compact = iban.uppercased().filter { !$0.isWhitespace }
        var result = ""
        for (index, character) in compact.enumerated() {
            if index > 0, index % 4 == 0 { result.append(" ") }
            result.append(character)
        }
        return result
    }
}
