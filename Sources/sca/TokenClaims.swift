import Foundation
import SCAClient
import SCACore

/// The few claims of an access token the app shows (who, and for a payment the transaction
/// digest). Read for display only: the token is not verified here, the server does that.
struct TokenClaims: Decodable {
    var sub: String?
    var txn: String?
    var exp: Int?

    init?(accessToken: String) {
        let parts = accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try? JSONDecoder().decode(TokenClaims.self, from: Data(payload))
        else { return nil }
        self = claims
    }
}
