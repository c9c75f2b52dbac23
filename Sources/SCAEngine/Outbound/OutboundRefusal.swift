import SCACore

/// Why an outbound request was not sent: its host did not resolve, or resolved to an address
/// the request's policy refuses. Nothing was connected to in either case.
package enum OutboundRefusal: Error, Sendable, Equatable {
    /// No address: a name that does not resolve fails, it never passes the check.
    case unresolved
    /// One of the addresses the host resolved to is of this kind.
    case address(SpecialPurposeAddress.Kind)
}
