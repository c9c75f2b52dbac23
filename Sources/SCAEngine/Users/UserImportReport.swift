/// What `sca-server user import` did: every user imported, or none and why.
package struct UserImportReport: Sendable, Equatable {
    /// Lines that were not blank.
    package var lines: Int
    package var imported: Int
    /// Lines refused; when any is, nothing was imported.
    package var refusedLines: Int
    /// The first refusals, by line number.
    package var refusals: [Refusal]

    package struct Refusal: Sendable, Equatable {
        package var line: Int
        package var reason: String
    }
}
