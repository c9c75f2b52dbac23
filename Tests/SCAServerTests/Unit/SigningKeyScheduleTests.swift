import Foundation
@testable import SCAEngine
@testable import SCAPartners
import SCAStorage
import Testing

/// The pure rules of key rotation: which key signs, which are published, when rotation is due;
/// and `tokenKeys.rotationPeriod` as the configuration reads and checks it.
@Suite("Signing-key schedule")
struct SigningKeyScheduleTests {
    struct Key: Equatable {
        var id: String
        var activatesAt: Date
    }

    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    let schedule = SigningKeySchedule(prepublication: 3_600, retention: 660, rotationPeriod: 90 * 86_400)
    /// Newest activation first: c waits, b signs since t0 + 1000, a before it.
    let keys = [Key(id: "c", activatesAt: t0 + 10_000), Key(id: "b", activatesAt: t0 + 1_000), Key(id: "a", activatesAt: t0)]

    @Test("the newest key whose activation has passed signs; before every activation, the oldest")
    func signing() {
        #expect(schedule.signing(keys, at: Self.t0 + 999, activation: \.activatesAt)?.id == "a")
        #expect(schedule.signing(keys, at: Self.t0 + 1_000, activation: \.activatesAt)?.id == "b")
        #expect(schedule.signing(keys, at: Self.t0 + 9_999, activation: \.activatesAt)?.id == "b")
        #expect(schedule.signing(keys, at: Self.t0 + 10_000, activation: \.activatesAt)?.id == "c")
        #expect(schedule.signing(keys, at: Self.t0 - 5, activation: \.activatesAt)?.id == "a")
        #expect(schedule.signing([Key](), at: Self.t0, activation: \.activatesAt) == nil)
    }

    @Test("published: the waiting key, the signing one, and each older one until its successor has signed for the retention")
    func published() {
        func ids(_ at: Date) -> [String] { schedule.published(keys, at: at, activation: \.activatesAt).map(\.id) }
        #expect(ids(Self.t0 + 1_659) == ["c", "b", "a"])
        #expect(ids(Self.t0 + 1_660) == ["c", "b"])
        #expect(ids(Self.t0 + 10_659) == ["c", "b"])
        #expect(ids(Self.t0 + 10_660) == ["c"])
    }

    @Test("a periodic rotation is due once a new key would activate a period after the newest; a commanded one once the newest signs")
    func rotationRules() {
        let newest = SigningKeyRecordFixture.record(activatesAt: Self.t0)
        let candidate = SigningKeyRecordFixture.record(activatesAt: Self.t0 + 90 * 86_400)
        let dueAt = Self.t0 + 90 * 86_400 - 3_600
        #expect(schedule.periodicRotation(at: dueAt - 1)?.allows(candidate, after: newest) == false)
        #expect(schedule.periodicRotation(at: dueAt)?.allows(candidate, after: newest) == true)
        #expect(SigningKeySchedule(prepublication: 3_600, retention: 660, rotationPeriod: nil).periodicRotation(at: dueAt) == nil)
        let waiting = SigningKeyRecordFixture.record(activatesAt: Self.t0 + 3_600)
        #expect(schedule.commandedRotation(at: Self.t0 + 3_599).allows(candidate, after: waiting) == false)
        #expect(schedule.commandedRotation(at: Self.t0 + 3_600).allows(candidate, after: waiting))
        #expect(schedule.activation(ofKeyRotatedAt: Self.t0) == Self.t0 + 3_600)
    }

    @Test("the retention covers every JWT the key signs: access tokens as configured, and those whose lifetime is fixed in code")
    func retentionCoversEveryToken() {
        for lifetime in [
            TimeInterval(TokenService.enrolmentTokenLifetime), OAuthService.idTokenLifetime, OAuthService.responseLifetime,
            LogoutTokenClaims.lifetime,
        ] {
            #expect(lifetime <= SigningKeySchedule.longestFixedLifetime)
        }
        var configuration = ServerConfiguration()
        #expect(SigningKeySchedule(configuration: configuration).retention == 600 + 60)
        configuration.accessTokenLifetime = 3_600
        #expect(SigningKeySchedule(configuration: configuration).retention == 3_600 + 60)
        // The window is longer than what the JWKS tells caches and than how often instances read the keys.
        #expect(SigningKeySchedule.defaultPrepublication > TimeInterval(SigningKeySchedule.jwksMaxAge) + 30)
    }

    @Test("tokenKeys.rotationPeriod: off by default, days or hours, refused with the setting named otherwise")
    func rotationPeriodSetting() throws {
        let loader = ConfigurationLoader()
        #expect(try loader.load(file: nil, environment: [:], flags: [:]).tokenKeysRotationPeriod == nil)
        #expect(ConfigurationLoader.environmentName(of: "tokenKeys.rotationPeriod") == "SCA_TOKEN_KEYS_ROTATION_PERIOD")
        for (text, seconds) in [("90d", 90.0 * 86_400), ("36h", 36.0 * 3_600), ("off", nil), (" 7D ", 7.0 * 86_400)] as [(String, Double?)] {
            let configuration = try loader.load(file: nil, environment: ["SCA_TOKEN_KEYS_ROTATION_PERIOD": text], flags: [:])
            #expect(configuration.tokenKeysRotationPeriod == seconds, "\(text)")
        }
        for bad in ["weekly", "90", "-3d", "0d", "12h", "3651d", "1.5d"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try loader.load(file: nil, environment: ["SCA_TOKEN_KEYS_ROTATION_PERIOD": bad], flags: [:])
            }
        }
        // A period must outlast the window and the retention of the key before.
        #expect(throws: ConfigurationError.self) {
            try loader.load(
                file: nil, environment: ["SCA_TOKEN_KEYS_ROTATION_PERIOD": "1d", "SCA_ACCESS_TOKEN_LIFETIME": "86400"], flags: [:])
        }
    }
}

/// Stored keys that differ only in when they activate.
enum SigningKeyRecordFixture {
    static func record(activatesAt: Date) -> SigningKeyRecord {
        SigningKeyRecord(keyID: "k", algorithm: "ES256", sealedPrivateKey: [], createdAt: activatesAt, activatesAt: activatesAt)
    }
}
