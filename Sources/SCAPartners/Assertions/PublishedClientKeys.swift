import Foundation
import SCACore
import SCAEngine
import SCAStorage

/// The keys of clients that publish them at a URL (`jwksUri`) rather than register them: fetched
/// through the outbound rules of webhooks (no redirect followed, every address checked), kept for
/// ``maximumAge``, and fetched again at once when a token names a key id the kept copy lacks
/// (the client has rotated its keys), but at most once per ``minimumInterval``, so that made-up
/// key ids cannot make the server hammer the client. Each instance keeps its own copy.
actor PublishedClientKeys {
    static let maximumAge: TimeInterval = 300
    static let minimumInterval: TimeInterval = 10
    /// Room for ``ClientKeys/maximumCount`` RSA keys with their certificates; not a file store.
    static let maximumBytes = 65_536
    static let timeout = Duration.seconds(5)

    private struct Copy {
        var url: String
        var keys: ClientKeys
        var fetchedAt: Date
    }

    private let outbound: OutboundHTTP
    private let refusing: (@Sendable ([UInt8]) -> SpecialPurposeAddress.Kind?)?
    private var copies: [String: Copy] = [:]
    private var lastFetch: [String: Date] = [:]
    /// A fetch under way, per client: requests that arrive meanwhile wait for it rather than
    /// fetch again.
    private var fetching: [String: Task<Result<ClientKeys, BrokenRule>, Never>] = [:]

    /// - Parameter refusing: the address check of every outbound call to a partner.
    init(outbound: OutboundHTTP, refusing: (@Sendable ([UInt8]) -> SpecialPurposeAddress.Kind?)?) {
        self.outbound = outbound
        self.refusing = refusing
    }

    /// The client's published keys, as kept or fetched now.
    /// - Parameter keyID: the `kid` of the token about to be checked: a copy without it is
    ///   fetched again when the interval allows.
    /// - Throws: ``BrokenRule`` when the client publishes no keys, or they cannot be fetched
    ///   and no copy is kept.
    func keys(of client: PartnerClientRecord, naming keyID: String?, now: Date) async throws(BrokenRule) -> ClientKeys {
        guard let url = client.jwksURI else { throw BrokenRule("this client has registered no keys") }
        let kept = copies[client.id].flatMap { $0.url == url ? $0 : nil }
        if let kept, now.timeIntervalSince(kept.fetchedAt) < Self.maximumAge, kept.keys.key(named: keyID) != nil {
            return kept.keys
        }
        let running: Task<Result<ClientKeys, BrokenRule>, Never>
        if let under = fetching[client.id] {
            running = under
        } else {
            // Never more than one fetch per interval, whatever arrives: a client whose URL does
            // not answer cannot make the server call it at every request.
            if let last = lastFetch[client.id], now.timeIntervalSince(last) < Self.minimumInterval {
                guard let kept else {
                    throw BrokenRule("the client's jwksUri could not be fetched; it is tried again at most every \(Int(Self.minimumInterval)) seconds")
                }
                return kept.keys
            }
            lastFetch[client.id] = now
            running = Task { [id = client.id] in await self.fetched(url, for: id) }
            fetching[client.id] = running
        }
        let result = await running.value
        fetching[client.id] = nil
        switch result {
        case .success(let keys):
            copies[client.id] = Copy(url: url, keys: keys, fetchedAt: now)
            return keys
        case .failure(let error):
            // A client's passing outage does not lock it out while its last keys are known.
            if let kept { return kept.keys }
            throw error
        }
    }

    private func fetched(_ address: String, for clientID: String) async -> Result<ClientKeys, BrokenRule> {
        do {
            return .success(try await fetch(address, for: clientID))
        } catch {
            return .failure(error)
        }
    }

    private func fetch(_ address: String, for clientID: String) async throws(BrokenRule) -> ClientKeys {
        guard let url = URL(string: address) else { throw BrokenRule("the client's jwksUri is not a URL") }
        let answer: (status: Int, body: [UInt8])
        do {
            answer = try await outbound.get(
                url, headers: [("Accept", "application/jwk-set+json, application/json")], timeout: Self.timeout,
                maximumBytes: Self.maximumBytes, for: .partnerKeys(clientID: clientID), refusing: refusing)
        } catch OutboundRefusal.address(let kind) {
            throw BrokenRule("the client's jwksUri points at a \(kind.rawValue) address")
        } catch {
            throw BrokenRule("the client's jwksUri could not be fetched")
        }
        guard answer.status == 200 else { throw BrokenRule("the client's jwksUri answered \(answer.status)") }
        return try ClientKeys(json: String(decoding: answer.body, as: UTF8.self))
    }
}
