/// Why a line of `sca-server user import` was refused, in words for the operator.
package struct UserImportError: Error, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
