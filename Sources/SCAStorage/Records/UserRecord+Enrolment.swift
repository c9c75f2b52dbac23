// Sign-up or in.
extension UserRecord {
    /// Whether this user has nothing but a proven mailbox (or, signed up by phone, the proven
    /// login phone as its only SMS phone): made by a sign-up that has not
    /// added its second element yet (or an account given nothing else). Only such a user may
    /// be handed an enrolment token; anyone with more signs in with SCA to change it.
    /// - Parameters:
    ///   - activeDevices: the user's devices that are not removed.
    ///   - passkeys: the user's registered passkeys.
    package func awaitsSecondElement(activeDevices: Int, passkeys: Int) -> Bool {
        passwordHash == nil && pinHash == nil && sealedTOTPSeed == nil && (phone == nil || phone == loginPhone)
            && activeDevices == 0 && passkeys == 0
    }
}
