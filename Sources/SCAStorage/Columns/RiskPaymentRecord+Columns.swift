import Foundation
import SCACore

extension RiskPaymentRecord: ColumnDecodable {
    /// A `risk_payments` row.
    package init(columns: some ColumnReader) throws {
        self.init(
            challengeID: try columns.value("challenge_id"),
            userID: try columns.value("user_id"),
            createdAt: try columns.date("created_at"),
            authorisedAt: try columns.optionalDate("authorised_at"),
            amountMinor: try columns.integer("amount_minor"),
            amount: try columns.value("amount"),
            currency: try columns.value("currency"),
            type: try columns.rawValue("payment_type"),
            payeeKey: try columns.value("payee_key"),
            iban: try columns.value("iban"),
            transactionDigest: try columns.value("transaction_digest"),
            clientAddress: try columns.value("client_address"),
            deviceID: try columns.value("device_id"),
            exemption: try columns.optionalRawValue("exemption"),
            recurring: try columns.bool("recurring")
        )
    }
}

extension PaymentType {
    /// Volumes read as (type, sum) rows; unknown types are ignored rather than failing a report.
    package static func volumes(_ rows: [(String, Int64)]) -> [PaymentType: Int64] {
        var volumes: [PaymentType: Int64] = [:]
        for (raw, sum) in rows {
            if let type = PaymentType(rawValue: raw) { volumes[type, default: 0] += sum }
        }
        return volumes
    }
}
