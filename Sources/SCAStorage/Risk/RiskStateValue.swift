import Foundation

/// A record of the risk engine kept under one key (`user:<id>`, `provider`) and changed only
/// through `SCAStore.updateRiskState`: the backend loads it (a fresh one when none), applies
/// the caller's pure transition and stores it if it changed, in one transaction.
public protocol RiskStateValue: Codable, Sendable, Equatable {
    /// The key's prefix; the full key is the prefix and an id (or the prefix alone).
    static var keyPrefix: String { get }
    /// The state of a key never written.
    init()
}

/// The one JSON form every backend stores risk states in.
package enum RiskStateCodec {
    package static func encode<State: RiskStateValue>(_ state: State) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }

    package static func decode<State: RiskStateValue>(_ text: String?, as type: State.Type = State.self) throws -> State {
        guard let text else { return State() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(State.self, from: Data(text.utf8))
    }
}

/// The provider-wide state of the risk engine: which TRA bands are stopped (art. 20) as last
/// evaluated, so that a stop and a resumption are each audited once.
package struct ProviderRiskState: RiskStateValue {
    package static let keyPrefix = "provider"

    /// Stopped bands, as ``TRABand/id`` (`credit_transfer:500`), sorted.
    package var suspendedBands: [String]

    package init() { suspendedBands = [] }

    /// Stores the bands found stopped now.
    /// - Returns: the bands stopped and resumed by this change.
    package mutating func update(suspended: Set<String>) -> (stopped: [String], resumed: [String]) {
        let before = Set(suspendedBands)
        suspendedBands = suspended.sorted()
        return (suspended.subtracting(before).sorted(), before.subtracting(suspended).sorted())
    }
}
