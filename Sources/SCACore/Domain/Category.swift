/// One of the three kinds of evidence PSD2 recognises. A challenge is satisfied by proofs
/// from enough *distinct* categories; two methods of one category never count twice.
public enum Category: String, Codable, Sendable, CaseIterable, Comparable {
    /// Something only the user knows (password, PIN).
    case knowledge
    /// Something only the user has (a bound device key, an authenticator, a phone number).
    case possession
    /// Something the user is (biometrics, through a biometry-gated device key).
    case inherence

    public static func < (lhs: Category, rhs: Category) -> Bool {
        lhs.sortOrder < rhs.sortOrder
    }

    private var sortOrder: Int {
        switch self {
        case .knowledge: 0
        case .possession: 1
        case .inherence: 2
        }
    }
}
