import Foundation
import SCAStorage
import SCAStoragePostgres
import Testing

/// The backend-neutral conformance suite, run against PostgreSQL: every test on a new store in
/// a schema of its own. The cases run one at a time so that their connection pools never add
/// up past the server's connection limit.
@Suite(
    "PostgresStore conformance", .serialized,
    .enabled(if: PostgresTestDatabase.url != nil, "PostgreSQL cases skipped: set SCA_TEST_POSTGRES_URL")
)
struct PostgresStoreConformanceTests {
    /// Runs one conformance check on a new store in a fresh schema.
    private func check(_ body: (StoreConformance) async throws -> Void) async throws {
        try await PostgresTestDatabase.withFreshSchema { url in
            let store = try await PostgresStore.connect(url: url, logger: PostgresTestDatabase.logger)
            try await store.withRunning { try await body(StoreConformance(store: $0)) }
        }
    }

    @Test func userRoundTrip() async throws { try await check { try await $0.userRoundTrip() } }
    @Test func duplicateUserConflicts() async throws { try await check { try await $0.duplicateUserConflicts() } }
    @Test func updateUser() async throws { try await check { try await $0.updateUser() } }

    @Test func lockoutSequence() async throws { try await check { try await $0.lockoutSequence() } }
    @Test func failuresCountDown() async throws { try await check { try await $0.failuresCountDown() } }
    @Test func successResetsCounters() async throws { try await check { try await $0.successResetsCounters() } }
    @Test func releaseGivesOneAttemptBack() async throws { try await check { try await $0.releaseGivesOneAttemptBack() } }
    @Test func releaseLeavesBlocksAlone() async throws { try await check { try await $0.releaseLeavesBlocksAlone() } }
    @Test func lockoutOfUnknownUserThrows() async throws { try await check { try await $0.lockoutOfUnknownUserThrows() } }
    @Test func parallelReservationsGrantTheAllowanceOnce() async throws {
        try await check { try await $0.parallelReservationsGrantTheAllowanceOnce() }
    }

    @Test func totpStepsBurnOnce() async throws { try await check { try await $0.totpStepsBurnOnce() } }

    // v2-unknown-address-lockout
    @Test func unknownAddressesLockLikeUsers() async throws { try await check { try await $0.unknownAddressesLockLikeUsers() } }
    @Test func unknownAddressStateRoundTripsWhole() async throws { try await check { try await $0.unknownAddressStateRoundTripsWhole() } }
    @Test func parallelUnknownAddressReservationsGrantTheAllowanceOnce() async throws {
        try await check { try await $0.parallelUnknownAddressReservationsGrantTheAllowanceOnce() }
    }

    @Test func challengeRoundTrip() async throws { try await check { try await $0.challengeRoundTrip() } }
    @Test func challengeCompareAndSet() async throws { try await check { try await $0.challengeCompareAndSet() } }
    @Test func parallelChallengeUpdatesLandOnce() async throws {
        try await check { try await $0.parallelChallengeUpdatesLandOnce() }
    }

    @Test func codeIssuingRespectsIntervalAndLimit() async throws {
        try await check { try await $0.codeIssuingRespectsIntervalAndLimit() }
    }
    @Test func usedCodeIsReplacedAtOnce() async throws { try await check { try await $0.usedCodeIsReplacedAtOnce() } }
    @Test func codesAreConsumedOnce() async throws { try await check { try await $0.codesAreConsumedOnce() } }
    @Test func parallelCodeConsumptionSucceedsOnce() async throws {
        try await check { try await $0.parallelCodeConsumptionSucceedsOnce() }
    }

    @Test func sessionUseAndIdleTimeout() async throws { try await check { try await $0.sessionUseAndIdleTimeout() } }
    @Test func revokedSessionStaysRevoked() async throws { try await check { try await $0.revokedSessionStaysRevoked() } }
    @Test func refreshRotationAndReuse() async throws { try await check { try await $0.refreshRotationAndReuse() } }
    @Test func refreshKeptWithoutSuccessor() async throws { try await check { try await $0.refreshKeptWithoutSuccessor() } }
    @Test func parallelRotationsSucceedOnce() async throws { try await check { try await $0.parallelRotationsSucceedOnce() } }
    @Test func refreshEndsWithExpiryOrIdleness() async throws {
        try await check { try await $0.refreshEndsWithExpiryOrIdleness() }
    }

    @Test func tokensAreConsumedOnce() async throws { try await check { try await $0.tokensAreConsumedOnce() } }
    @Test func firstSigningKeyWins() async throws { try await check { try await $0.firstSigningKeyWins() } }
    @Test func signingKeysRotateOnce() async throws { try await check { try await $0.signingKeysRotateOnce() } }
    @Test func healthCheckPasses() async throws { try await check { try await $0.healthCheckPasses() } }

    @Test func activationCodeConflictsAndReplacement() async throws {
        try await check { try await $0.activationCodeConflictsAndReplacement() }
    }
    @Test func deviceRegistration() async throws { try await check { try await $0.deviceRegistration() } }
    @Test func wrongActivationCodeCountsTries() async throws {
        try await check { try await $0.wrongActivationCodeCountsTries() }
    }
    @Test func expiredActivationCodeIsInvalid() async throws {
        try await check { try await $0.expiredActivationCodeIsInvalid() }
    }
    @Test func deviceLimitExcludesRemovedDevices() async throws {
        try await check { try await $0.deviceLimitExcludesRemovedDevices() }
    }
    @Test func devicesAreListedOldestFirst() async throws { try await check { try await $0.devicesAreListedOldestFirst() } }
    @Test func parallelRegistrationsUseTheCodeOnce() async throws {
        try await check { try await $0.parallelRegistrationsUseTheCodeOnce() }
    }
    @Test func deviceStatusChanges() async throws { try await check { try await $0.deviceStatusChanges() } }
    @Test func devicesAreRenamed() async throws { try await check { try await $0.devicesAreRenamed() } }
    @Test func failuresBlockAnActiveDevice() async throws { try await check { try await $0.failuresBlockAnActiveDevice() } }
    @Test func parallelDeviceFailuresAreAllCounted() async throws {
        try await check { try await $0.parallelDeviceFailuresAreAllCounted() }
    }
    @Test func signaturesAreUsedOnce() async throws { try await check { try await $0.signaturesAreUsedOnce() } }
    @Test func usedSignaturesAreForgottenAfterExpiry() async throws {
        try await check { try await $0.usedSignaturesAreForgottenAfterExpiry() }
    }

    @Test func newestAuditEntryIsTheHead() async throws { try await check { try await $0.newestAuditEntryIsTheHead() } }
    @Test func auditEntriesChainAndRoundTrip() async throws {
        try await check { try await $0.auditEntriesChainAndRoundTrip() }
    }
    @Test func parallelAuditAppendsFormOneChain() async throws {
        try await check { try await $0.parallelAuditAppendsFormOneChain() }
    }

    // Rate budgets (v2-rate-limits)
    @Test func rateBudgetsGrantUpToTheLimitAndSlide() async throws {
        try await check { try await $0.rateBudgetsGrantUpToTheLimitAndSlide() }
    }
    @Test func refusedRateBudgetsCountNothing() async throws { try await check { try await $0.refusedRateBudgetsCountNothing() } }
    @Test func expiredRateUsesFreeTheBudget() async throws { try await check { try await $0.expiredRateUsesFreeTheBudget() } }
    @Test func parallelRateConsumersGetExactlyTheLimit() async throws {
        try await check { try await $0.parallelRateConsumersGetExactlyTheLimit() }
    }
    @Test func decoySubjectRoundTrip() async throws { try await check { try await $0.decoySubjectRoundTrip() } }
    // Admin keys (v3-admin-keys)
    @Test func adminKeysRoundTripAndConflict() async throws { try await check { try await $0.adminKeysRoundTripAndConflict() } }
    @Test func adminKeyRevocationAndUse() async throws { try await check { try await $0.adminKeyRevocationAndUse() } }
    @Test func userRolesChange() async throws { try await check { try await $0.userRolesChange() } }
    // Risk engine (v3-risk).
    @Test func riskStateRoundTrip() async throws { try await check { try await $0.riskStateRoundTrip() } }
    @Test func riskStateReadsWhatWasCommitted() async throws { try await check { try await $0.riskStateReadsWhatWasCommitted() } }
    @Test func riskPaymentAdmittedWithItsChallenge() async throws { try await check { try await $0.riskPaymentAdmittedWithItsChallenge() } }
    @Test func riskPaymentAuthorisedWithItsState() async throws { try await check { try await $0.riskPaymentAuthorisedWithItsState() } }
    @Test func parallelLowValueAdmissionsGrantTheLimit() async throws {
        try await check { try await $0.parallelLowValueAdmissionsGrantTheLimit() }
    }
    @Test func riskPaymentsAndVolumes() async throws { try await check { try await $0.riskPaymentsAndVolumes() } }
    @Test func riskHistoryAggregates() async throws { try await check { try await $0.riskHistoryAggregates() } }
    @Test func riskAggregatesEqualTheScan() async throws { try await check { try await $0.riskAggregatesEqualTheScan() } }
    @Test func riskAggregatesUnderParallelPayments() async throws {
        try await check { try await $0.riskAggregatesUnderParallelPayments() }
    }
    @Test func fraudReportsCountOnce() async throws { try await check { try await $0.fraudReportsCountOnce() } }
    // v3-partners.
    @Test func partnerClientRoundTrip() async throws { try await check { try await $0.partnerClientRoundTrip() } }
    @Test func authorizationCodesRedeemOnce() async throws { try await check { try await $0.authorizationCodesRedeemOnce() } }
    @Test func consentCompareAndSet() async throws { try await check { try await $0.consentCompareAndSet() } }
    @Test func consentContextReadsWhatThePageShows() async throws {
        try await check { try await $0.consentContextReadsWhatThePageShows() }
    }

    // Passkeys (v3-passkeys)
    @Test func passkeyRegistrationRoundTrip() async throws { try await check { try await $0.passkeyRegistrationRoundTrip() } }
    @Test func passkeyCounterIsComparedAndSet() async throws { try await check { try await $0.passkeyCounterIsComparedAndSet() } }
    @Test func parallelPasskeyRegistrationsRespectTheLimit() async throws {
        try await check { try await $0.parallelPasskeyRegistrationsRespectTheLimit() }
    }
    // Decoupled operations (v3-operations)
    @Test func operationRoundTripAndPending() async throws { try await check { try await $0.operationRoundTripAndPending() } }
    @Test func parallelOperationMovesStoreOneFinalStatus() async throws {
        try await check { try await $0.parallelOperationMovesStoreOneFinalStatus() }
    }
    @Test func authorizationGrantsNameWhoSignedIn() async throws {
        try await check { try await $0.authorizationGrantsNameWhoSignedIn() }
    }
    // Passkey proofs (v3-passkey-proofs)
    @Test func passkeyProofCategoriesRoundTrip() async throws { try await check { try await $0.passkeyProofCategoriesRoundTrip() } }
    // Sign-up or in (v3-signup).
    @Test func parallelSignUpsCreateOneUser() async throws { try await check { try await $0.parallelSignUpsCreateOneUser() } }
    @Test func profileRoundTrip() async throws { try await check { try await $0.profileRoundTrip() } }
    // Partner webhooks (v3-partner-webhooks)
    @Test func partnerWebhookRoundTrip() async throws { try await check { try await $0.partnerWebhookRoundTrip() } }
    @Test func webhookDeliveriesAreClaimedOnce() async throws {
        try await check { try await $0.webhookDeliveriesAreClaimedOnce() }
    }
    @Test func overdueOperationsAreListed() async throws { try await check { try await $0.overdueOperationsAreListed() } }
    // One proof, one write transaction
    @Test func proofCommitAppliesEverything() async throws { try await check { try await $0.proofCommitAppliesEverything() } }
    @Test func proofCommitDecidesItsConsent() async throws { try await check { try await $0.proofCommitDecidesItsConsent() } }
    @Test func proofCommitRecordsItsRiskCompletion() async throws { try await check { try await $0.proofCommitRecordsItsRiskCompletion() } }
    @Test func proofCommitAppliesNothingWhenRefused() async throws {
        try await check { try await $0.proofCommitAppliesNothingWhenRefused() }
    }
    @Test func parallelFailedProofsRespectTheLimit() async throws {
        try await check { try await $0.parallelFailedProofsRespectTheLimit() }
    }
    @Test func parallelProofsOnOneChallengeCommitOnce() async throws {
        try await check { try await $0.parallelProofsOnOneChallengeCommitOnce() }
    }
    @Test func proofCommitCountsUnknownAddresses() async throws { try await check { try await $0.proofCommitCountsUnknownAddresses() } }
    @Test func proofCommitCountsDeviceFailures() async throws { try await check { try await $0.proofCommitCountsDeviceFailures() } }
    @Test func activePasskeysAreCountedOnTheUser() async throws {
        try await check { try await $0.activePasskeysAreCountedOnTheUser() }
    }
    @Test func proofContextReadsChallengeUserAndDevice() async throws {
        try await check { try await $0.proofContextReadsChallengeUserAndDevice() }
    }
    // Compare-and-set on a user.
    @Test func userPreconditionIsACompareAndSet() async throws {
        try await check { try await $0.userPreconditionIsACompareAndSet() }
    }
    // Status changes with their webhook event (v3-webhook-events)
    // What the server tells a partner on its own (v7-partner-notifications)
    @Test func sessionEndsAreAnnouncedOnce() async throws { try await check { try await $0.sessionEndsAreAnnouncedOnce() } }
    @Test func refreshReuseIsAnnounced() async throws { try await check { try await $0.refreshReuseIsAnnounced() } }
    @Test func parallelEndsAnnounceOnce() async throws { try await check { try await $0.parallelEndsAnnounceOnce() } }
    // What the operator console looks up (v9-console-lookups).
    @Test func usersAreFoundByEmailPrefixAndPhone() async throws {
        try await check { try await $0.usersAreFoundByEmailPrefixAndPhone() }
    }

    @Test func authenticatorAppIsRemoved() async throws {
        try await check { try await $0.authenticatorAppIsRemoved() }
    }
    @Test func auditTrailIsCutOnlyAtARecordedCut() async throws { try await check { try await $0.auditTrailIsCutOnlyAtARecordedCut() } }
    @Test func sealedEntriesRoundTrip() async throws { try await check { try await $0.sealedEntriesRoundTrip() } }
    @Test func parallelCutsLandOnce() async throws { try await check { try await $0.parallelCutsLandOnce() } }
    @Test func userIsErased() async throws { try await check { try await $0.userIsErased() } }
    @Test func retentionPurgesWhatEndedOnly() async throws { try await check { try await $0.retentionPurgesWhatEndedOnly() } }

    @Test func partnerActivityIsCounted() async throws {
        try await check { try await $0.partnerActivityIsCounted() }
    }
    @Test func userTimelineIsNewestFirst() async throws { try await check { try await $0.userTimelineIsNewestFirst() } }
    // Recovery sheets (v10-recovery-sheets).
    @Test func recoverySheetsReplaceAndCount() async throws { try await check { try await $0.recoverySheetsReplaceAndCount() } }
    @Test func recoveryBurnsAPUKOnceWithItsDevice() async throws {
        try await check { try await $0.recoveryBurnsAPUKOnceWithItsDevice() }
    }
    @Test func parallelRecoveriesBurnAPUKOnce() async throws { try await check { try await $0.parallelRecoveriesBurnAPUKOnce() } }
    // Password resets (v12-password-reset).
    @Test func passwordResetReplacesRestrictsAndEndsSessions() async throws {
        try await check { try await $0.passwordResetReplacesRestrictsAndEndsSessions() }
    }
    @Test func passwordResetBurnsItsPUKOnce() async throws { try await check { try await $0.passwordResetBurnsItsPUKOnce() } }
    // What the console's risk and audit pages read (v11-console-reports).
    @Test func auditEntriesAreFilteredAndPaged() async throws { try await check { try await $0.auditEntriesAreFilteredAndPaged() } }
    @Test func exemptionsGrantedAreCountedPerDay() async throws {
        try await check { try await $0.exemptionsGrantedAreCountedPerDay() }
    }
    // What an export of a user's data reads.
    @Test func holdingsAreTheUsersOwn() async throws { try await check { try await $0.holdingsAreTheUsersOwn() } }
    @Test func cibaPingsGoToPingClientsOnly() async throws { try await check { try await $0.cibaPingsGoToPingClientsOnly() } }
    @Test func statusChangeAndEventAreOneWrite() async throws {
        try await check { try await $0.statusChangeAndEventAreOneWrite() }
    }
    @Test func parallelFinalisationsWriteOneEvent() async throws {
        try await check { try await $0.parallelFinalisationsWriteOneEvent() }
    }
    @Test func overdueConsentsAreListed() async throws { try await check { try await $0.overdueConsentsAreListed() } }
    // Sign-up by phone (v3-signup-phone).
    @Test func loginPhoneLookup() async throws { try await check { try await $0.loginPhoneLookup() } }
    @Test func parallelPhoneSignUpsCreateOneUser() async throws {
        try await check { try await $0.parallelPhoneSignUpsCreateOneUser() }
    }
    // End of sign-up by phone.
    // Opening a challenge in one read and one write.
    @Test func challengeContextReadsUserAndDevice() async throws {
        try await check { try await $0.challengeContextReadsUserAndDevice() }
    }
    @Test func challengeInsertAuditsInTheSameWrite() async throws {
        try await check { try await $0.challengeInsertAuditsInTheSameWrite() }
    }
    @Test func parallelChallengeInsertsKeepOneChain() async throws {
        try await check { try await $0.parallelChallengeInsertsKeepOneChain() }
    }
    // End of opening a challenge.
    // An operator sets a login phone.
    @Test func loginPhoneUpdate() async throws { try await check { try await $0.loginPhoneUpdate() } }
    // A code or TOTP step used in the proof's commit.
    @Test func proofCommitUsesACodeOnce() async throws { try await check { try await $0.proofCommitUsesACodeOnce() } }
    @Test func proofCommitUsesATOTPStepOnce() async throws { try await check { try await $0.proofCommitUsesATOTPStepOnce() } }
    @Test func parallelProofsUseAFactorOnce() async throws { try await check { try await $0.parallelProofsUseAFactorOnce() } }
    // Burnt signatures forgotten by the sweep.
    @Test func usedSignaturesAreSweptAfterExpiry() async throws { try await check { try await $0.usedSignaturesAreSweptAfterExpiry() } }
    @Test func challengeSignaturesMustBeWholeHashes() async throws { try await check { try await $0.challengeSignaturesMustBeWholeHashes() } }
    @Test func staleObservedCountersDecideOnTheStoredOnes() async throws {
        try await check { try await $0.staleObservedCountersDecideOnTheStoredOnes() }
    }
}
