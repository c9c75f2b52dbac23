/// Why a retention pass stopped.
package struct RetentionError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
