import SCACore

/// How a forgotten password is replaced without the password: what a `password_reset`
/// challenge offers, and what its proofs earn. Pure decisions on values, so every row of the
/// decision table is tested on its own.
///
/// | Proven                                                   | Reset        |
/// |----------------------------------------------------------|--------------|
/// | a bound device's key and its biometry                    | complete     |
/// | a passkey that verified the user (UV counted inherence)  | complete     |
/// | an e-mail or SMS code and the recovery sheet's code + PUK| complete     |
/// | any one possession element alone                         | restricted   |
/// | a wrong PUK, or nothing                                  | refused      |
///
/// Knowledge is never offered: it is the element being replaced.
package enum PasswordResetPlan {
    /// The way the user says they will prove it (the challenge's `methodHint`): with their
    /// device, with a passkey, or with a code. Without a hint every non-knowledge method the
    /// user has is offered.
    package static func methods(_ offered: [AuthenticationMethod], hint: AuthenticationMethod?) -> [AuthenticationMethod] {
        let path: Set<AuthenticationMethod>
        switch hint {
        case nil: return offered
        case .deviceKey?, .biometricKey?: path = [.deviceKey, .biometricKey]
        case .passkey?, .passkeyUserVerified?: path = [.passkey]
        case .smsOTP?, .emailOTP?, .totp?: path = [.smsOTP, .emailOTP, .totp]
        case .password?, .pin?: path = []
        }
        return offered.filter(path.contains)
    }

    /// The categories the challenge asks for: the policy's, lowered to what the offered
    /// methods can prove, never below one. A user who has only a code to show can still reset,
    /// restricted; one who holds a device or passkey proves both its categories.
    package static func requiredCategories(policy: Int, provable: Set<Category>) -> Int {
        max(1, min(policy, provable.subtracting([.knowledge]).count))
    }

    /// What a completed `password_reset` challenge and the recovery sheet earn.
    package enum Outcome: Equatable {
        /// Two categories other than knowledge, or two independent possessions: the new
        /// password counts in full (and lifts an earlier restriction).
        case complete
        /// One possession element: the new password signs in, but payments and changes wait
        /// for an operator after the cooling-off.
        case restricted
    }

    /// The reset the token's `amr` earns.
    /// - Parameters:
    ///   - amr: the methods the challenge's proofs established (`passkey_uv` when the
    ///     authenticator verified the user).
    ///   - userVerifiedCategory: the category a passkey's user verification counts as.
    ///   - sheetRedeemed: the request carried the recovery sheet's code and a right PUK.
    package static func outcome(amr: [AuthenticationMethod], userVerifiedCategory: Category, sheetRedeemed: Bool) -> Outcome {
        var categories = Set<Category>()
        for method in amr {
            categories.insert(method == .passkeyUserVerified ? userVerifiedCategory : method.category)
        }
        categories.remove(.knowledge)
        if categories.count >= 2 { return .complete }
        // The sheet is a second, independent thing held beside a code sent to an address or
        // number on file. (An authenticator app's code does not pair with it: the app usually
        // lives on the phone the sheet stands in for.)
        if sheetRedeemed, amr.contains(where: \.isDeliveredCode) { return .complete }
        return .restricted
    }

    /// The operations a restricted account cannot open a challenge for: money leaving, and
    /// every change of how the account is reached. Signing in and reading stay open.
    package static let heldOperations: Set<OperationKind> = [.payment, .settingsChange, .deviceActivation, .beneficiaryAdd]
}
