@_exported import SCACore
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK: opens challenges, runs the proof loop with a ``FactorCollector``, binds this device
/// and keeps the session's tokens fresh.
///
/// The server is the only judge: a flow ends when the server answers `complete`, never because
/// the SDK thinks enough was proven.
public final class SCAClient: Sendable {
    /// The server's base URL (`https://bank.example/sca/` works too: paths are appended to it).
    public let server: URL
    let keyStore: any DeviceKeyStore
    let tokenStore: any TokenStore
    let configuration: Configuration
    let transport: APITransport
    let now: @Sendable () -> Date
    let session: SessionKeeper
    /// The device this client named in each challenge it opened (challenge id → device id):
    /// device methods are used only on a challenge that names this device. Bounded, oldest
    /// dropped, since a challenge lives minutes.
    private let namedDevices = Mutex<[(challengeID: String, deviceID: String)]>([])
    private static let namedDevicesLimit = 32

    /// - Parameters:
    ///   - server: the server's base URL.
    ///   - keyStore: where this device's keys and binding live.
    ///   - tokenStore: where the session's tokens live (in memory by default).
    ///   - configuration: method order, refresh margin, waits.
    ///   - session: the URL session (`URLSession(configuration: .ephemeral)` keeps nothing on disk).
    ///   - now: the clock, injected so tests control token expiry.
    public init(
        server: URL, keyStore: any DeviceKeyStore, tokenStore: any TokenStore = InMemoryTokenStore(),
        configuration: Configuration = Configuration(), session: URLSession = .shared,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.server = server
        self.keyStore = keyStore
        self.tokenStore = tokenStore
        self.configuration = configuration
        self.now = now
        let transport = APITransport(server: server, session: session)
        self.transport = transport
        self.session = SessionKeeper(
            transport: transport, store: tokenStore, refreshMargin: configuration.refreshMargin, now: now)
    }

    // MARK: Phase 1

    /// Opens a challenge: says what the user wants to do and learns what the server will accept.
    ///
    /// - Parameters:
    ///   - purpose: the operation (and, for a payment, the transaction).
    ///   - user: by e-mail or user id.
    ///   - device: this device, to be offered `device_key` and `biometric_key`.
    /// - Returns: the challenge: methods, required categories, nonce, payment display.
    /// - Throws: ``SCAClientError/deviceRefused(_:)`` when the named device is blocked, removed or
    ///   unknown; ``SCAClientError/server(_:)`` for other problems (`request.invalid`,
    ///   `sca.categories_unavailable`); `URLError` when the server cannot be reached.
    public func startChallenge(
        for purpose: Purpose, user: UserReference, device: DeviceReference? = nil
    ) async throws -> ChallengeResponse {
        try await startChallenge(for: purpose, user: user, device: device, session: nil)
    }

    /// - Parameter session: an access token of the signed-in user's session, so the server may
    ///   apply an RTS exemption; the answer is then already `completed` with its tokens.
    func startChallenge(
        for purpose: Purpose, user: UserReference, device: DeviceReference?, session bearer: String?
    ) async throws -> ChallengeResponse {
        try await startChallenge(
            CreateChallengeRequest(operation: purpose.operation, user: user, device: device, transaction: purpose.transaction),
            session: bearer)
    }

    /// Opens `request`'s challenge, remembering the device it names so its keys may answer.
    func startChallenge(_ request: CreateChallengeRequest, session bearer: String? = nil) async throws -> ChallengeResponse {
        let challenge: ChallengeResponse = try await transport.send(.post, "v1/challenges", body: request, bearer: bearer)
        if let device = request.device {
            namedDevices.withLock { named in
                named.append((challenge.challengeId, device.deviceId))
                if named.count > Self.namedDevicesLimit { named.removeFirst(named.count - Self.namedDevicesLimit) }
            }
        }
        return challenge
    }

    // MARK: Phases 2 and 3

    /// Answers a challenge: collects and submits proofs until the server answers `complete`.
    ///
    /// Device keys are used first without asking; a payment is confirmed by the user before the
    /// first proof; wrong factors are asked again as the server's verdict mode says. Tokens that
    /// open a session (with a refresh token: `login`, `account_info`) are saved in the token store.
    ///
    /// - Parameters:
    ///   - challenge: from ``startChallenge(for:user:device:)``. Device methods are used only when
    ///     this client opened it naming the bound device.
    ///   - collector: asks the user.
    ///   - prefill: secrets already typed (password, PIN, TOTP code), used on the first try of
    ///     their method instead of asking.
    /// - Returns: the tokens.
    /// - Throws: ``SCAClientError``: `.cancelled`, `.transactionDeclined`, `.noUsableMethod`,
    ///   `.deviceRefused`, `.locked`, `.server` (e.g. `challenge.expired`); the collector's or
    ///   key store's own errors; `URLError` when the server cannot be reached.
    public func authenticate(
        challenge: ChallengeResponse, using collector: any FactorCollector,
        prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> TokenResponse {
        let deviceID = namedDevices.withLock { named in named.last { $0.challengeID == challenge.challengeId }?.deviceID }
        var device: DeviceBinding?
        if let deviceID, let binding = try await keyStore.binding(), binding.deviceId == deviceID, binding.isFor(server: server) {
            device = binding
        }
        let loop = AuthenticationLoop(
            transport: transport, keyStore: keyStore, configuration: configuration, collector: collector,
            challenge: challenge, device: device)
        let tokens: TokenResponse
        do {
            tokens = try await loop.run(prefill: prefill)
        } catch let error as SCAClientError where error.code == .cancelled || error.code == .transactionDeclined {
            // The challenge is over; on any other error the app may try it again.
            forgetNamedDevice(of: challenge.challengeId)
            throw error
        }
        forgetNamedDevice(of: challenge.challengeId)
        if tokens.refreshToken != nil {
            try await session.save(tokens, receivedAt: now())
        }
        return tokens
    }

    /// Logs in with typed factors (password, PIN, codes): no device is named.
    ///
    /// - Parameters:
    ///   - email: the user's e-mail address.
    ///   - collector: asks the user.
    ///   - prefill: secrets already typed, used on their method's first try.
    /// - Returns: the login tokens, also saved in the token store.
    /// - Throws: as ``authenticate(challenge:using:prefill:)``.
    public func logIn(
        email: String, using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> TokenResponse {
        let challenge = try await startChallenge(for: .login, user: UserReference(email: email))
        return try await authenticate(challenge: challenge, using: collector, prefill: prefill)
    }

    /// Logs in with this device's keys alone (device key, then biometry key): no typing. When the
    /// biometric gate fails, the loop falls back to another category through the collector.
    ///
    /// - Parameter collector: asked for the biometric gate, and for a fallback factor if needed.
    /// - Returns: the login tokens, also saved in the token store.
    /// - Throws: ``SCAClientError/deviceNotActivated`` without a binding for this server;
    ///   ``SCAClientError/deviceRefused(_:)`` when the server refuses the device (the binding is
    ///   kept: call ``DeviceKeyStore/reset()`` or activate again); otherwise as
    ///   ``authenticate(challenge:using:prefill:)``.
    public func coldStart(using collector: any FactorCollector) async throws -> TokenResponse {
        let binding = try await currentBinding()
        let challenge = try await startChallenge(
            for: .login, user: UserReference(userId: binding.userId), device: DeviceReference(deviceId: binding.deviceId))
        return try await authenticate(challenge: challenge, using: collector)
    }

    /// Approves a payment for the bound user, naming the bound device so its keys can sign the
    /// amount and payee. Without a binding, the signed-in user pays with typed factors.
    ///
    /// - Parameters:
    ///   - transaction: amount and payee, shown to the user through ``FactorCollector/confirm(_:)``.
    ///   - collector: asks the user.
    ///   - prefill: secrets already typed, used on their method's first try.
    /// - Returns: the payment token (bound to the transaction; not stored). When the server
    ///   exempted the payment (the user is signed in and an RTS exemption applies), the token
    ///   comes at once, nothing is asked, and ``TokenResponse/exemption`` says why.
    /// - Throws: ``SCAClientError/notSignedIn`` with neither a binding nor a session;
    ///   ``SCAClientError/server(_:)`` with `request.invalid` for a transaction the server would
    ///   refuse (checked locally by ``TransactionRules``, nothing sent);
    ///   ``SCAClientError/transactionDeclined`` when the user does not confirm; otherwise as
    ///   ``authenticate(challenge:using:prefill:)``.
    public func pay(
        _ transaction: Transaction, using collector: any FactorCollector, prefill: [AuthenticationMethod: String] = [:]
    ) async throws -> TokenResponse {
        let (user, device) = try await subject()
        // The server stores, digests and shows the normalised form (IBAN compacted, texts in
        // NFC); sending that form keeps the app's own digest equal to the challenge's.
        let normalized: Transaction
        switch TransactionRules.normalized(transaction) {
        case .success(let value): normalized = value
        case .failure(let violation):
            throw SCAClientError.server(
                Problem(status: 400, code: .requestInvalid, title: "Invalid request", detail: "transaction: \(violation.reason)"))
        }
        // Signed in as this user: show the server the session, so it may exempt the payment
        // (RTS arts. 13–18); an exempted payment comes back completed, with nothing to prove.
        var bearer: String?
        if let signedIn = try? await session.signedInUserID(), user.userId == signedIn {
            bearer = try? await session.validAccessToken()
        }
        var challenge = try await startChallenge(for: .payment(normalized), user: user, device: device, session: bearer)
        if challenge.state == .completed, challenge.exemption != nil, let tokens = challenge.tokens {
            forgetNamedDevice(of: challenge.challengeId)
            return tokens
        }
        // The server shows a masked IBAN to whoever reads the challenge; the app shows its user
        // the whole account it sent, once the challenge is proven bound to exactly that payment.
        if challenge.transactionDigest == normalized.digest, let iban = normalized.payee.iban {
            challenge.display?.iban = iban
        }
        return try await authenticate(challenge: challenge, using: collector, prefill: prefill)
    }

    /// Cancels a pending challenge on the server.
    ///
    /// - Parameter challengeID: the challenge's id.
    /// - Throws: ``SCAClientError/server(_:)`` (`challenge.not_found`, or `challenge.completed` /
    ///   `challenge.cancelled` / `challenge.expired` when it is no longer pending); `URLError`.
    public func cancel(challengeID: String) async throws {
        let _: ChallengeResponse = try await transport.send(.delete, "v1/challenges/\(APITransport.escape(challengeID))")
        forgetNamedDevice(of: challengeID)
    }

    // MARK: Internals

    /// The binding for this server.
    /// - Throws: ``SCAClientError/deviceNotActivated`` when there is none.
    func currentBinding() async throws -> DeviceBinding {
        guard let binding = try await keyStore.binding(), binding.isFor(server: server) else {
            throw SCAClientError.deviceNotActivated
        }
        return binding
    }

    private func forgetNamedDevice(of challengeID: String) {
        namedDevices.withLock { named in named.removeAll { $0.challengeID == challengeID } }
    }
}
