/// Where a consent stands, by the status names of the consent contract in openapi.yaml (`ConsentStatus`).
public enum ConsentStatus: String, Codable, Sendable, CaseIterable {
    /// Made by the partner; the user has not opened the page yet.
    case created = "Created"
    /// The user opened the consent page.
    case started = "Started"
    /// The user approved it with strong customer authentication: the operation's token exists.
    case accepted = "Accepted"
    /// The user said no on the page.
    case customerRefused = "CustomerRefused"
    /// Strong customer authentication failed, or the user is blocked.
    case credentialRefused = "CredentialRefused"
    /// Nobody finished it in time.
    case expired = "Expired"
    /// The partner withdrew it.
    case canceled = "Canceled"
    /// The operation could not be carried out: the partner reported that executing it failed,
    /// or the page could not run the authentication it needs.
    case failed = "Failed"
    /// The partner reported it is executing the accepted operation.
    case operationCommitting = "OperationCommitting"

    /// No move leaves a final status.
    public var isFinal: Bool {
        switch self {
        case .created, .started, .accepted, .operationCommitting: false
        case .customerRefused, .credentialRefused, .expired, .canceled, .failed: true
        }
    }

    /// Whether the user can still act on it (open, approve or refuse).
    public var isOpen: Bool { self == .created || self == .started }

    /// The moves a consent may make. Anything else (accepting twice, reviving an expired or
    /// refused consent, cancelling one that was accepted: its token exists) is refused.
    public func canMove(to next: ConsentStatus) -> Bool {
        switch (self, next) {
        case (.created, .started): true
        case (.created, .expired), (.started, .expired): true
        case (.created, .canceled), (.started, .canceled): true
        case (.started, .accepted), (.started, .customerRefused), (.started, .credentialRefused): true
        case (.created, .customerRefused), (.created, .credentialRefused): true
        case (.accepted, .operationCommitting): true
        case (.accepted, .failed), (.operationCommitting, .failed): true
        // The page could not run the authentication this operation needs.
        case (.created, .failed), (.started, .failed): true
        default: false
        }
    }
}
