/// The sink answered something else than 2xx.
package struct AuditSinkRefusal: Error, CustomStringConvertible {
    package let status: Int
    package var description: String { "the audit sink answered \(status)" }
}
