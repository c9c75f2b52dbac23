import SCACore
import SCAEngine
import Testing

/// The decision table of a forgotten password, row by row, as pure decisions.
@Suite("Password reset decision table")
struct PasswordResetPlanTests {
    @Test(
        "what the proofs earn",
        arguments: [
            // (amr, sheet redeemed, outcome)
            ([AuthenticationMethod.deviceKey, .biometricKey], false, PasswordResetPlan.Outcome.complete),
            ([.passkey, .passkeyUserVerified], false, .complete),
            ([.emailOTP], true, .complete),
            ([.smsOTP], true, .complete),
            ([.emailOTP], false, .restricted),
            ([.smsOTP], false, .restricted),
            ([.totp], false, .restricted),
            ([.totp], true, .restricted),  // an authenticator app lives on the phone the sheet stands in for
            ([.deviceKey], false, .restricted),
            ([.passkey], false, .restricted),
            ([.deviceKey], true, .restricted),
        ])
    func outcome(amr: [AuthenticationMethod], sheet: Bool, expected: PasswordResetPlan.Outcome) {
        #expect(PasswordResetPlan.outcome(amr: amr, userVerifiedCategory: .inherence, sheetRedeemed: sheet) == expected)
    }

    @Test("a passkey's user verification counted as knowledge proves nothing a reset can use")
    func userVerificationAsKnowledge() {
        #expect(PasswordResetPlan.outcome(amr: [.passkey, .passkeyUserVerified], userVerifiedCategory: .knowledge, sheetRedeemed: false)
            == .restricted)
    }

    @Test("the hint picks the path; knowledge is never a path")
    func paths() {
        let all: [AuthenticationMethod] = [.totp, .smsOTP, .emailOTP, .deviceKey, .biometricKey, .passkey]
        #expect(PasswordResetPlan.methods(all, hint: nil) == all)
        #expect(PasswordResetPlan.methods(all, hint: .biometricKey) == [.deviceKey, .biometricKey])
        #expect(PasswordResetPlan.methods(all, hint: .passkey) == [.passkey])
        #expect(PasswordResetPlan.methods(all, hint: .emailOTP) == [.totp, .smsOTP, .emailOTP])
        #expect(PasswordResetPlan.methods(all, hint: .password).isEmpty)
        #expect(PasswordResetPlan.requiredCategories(policy: 2, provable: [.possession]) == 1)
        #expect(PasswordResetPlan.requiredCategories(policy: 2, provable: [.possession, .inherence]) == 2)
        #expect(PasswordResetPlan.requiredCategories(policy: 2, provable: []) == 1)
        #expect(PasswordResetPlan.requiredCategories(policy: 1, provable: [.possession, .inherence]) == 1)
        #expect(PasswordResetPlan.heldOperations == [.payment, .settingsChange, .deviceActivation, .beneficiaryAdd])
    }
}
