import ArgumentParser
import Foundation
import SCAClient
import SCACore

/// `sca pay`: authorises a payment for the bound user, signed over the exact amount and payee.
struct Pay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Authorise a payment: shows it, asks for confirmation, then this device's key and biometry.",
        discussion: """
            Scripts: sca pay --amount 125.00 --currency EUR --payee "ACME SAS" --iban FR76... --yes --biometric approve
            If biometry is cancelled, another factor is asked (--method with --code, or --password-stdin).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Amount with the currency's decimals, e.g. 125.00.", valueName: "amount"))
    var amount: String

    @Option(help: ArgumentHelp("ISO 4217 code, e.g. EUR.", valueName: "code"))
    var currency: String

    @Option(help: ArgumentHelp("Who is paid.", valueName: "name"))
    var payee: String

    @Option(help: ArgumentHelp("The payee's IBAN (spaces allowed).", valueName: "iban"))
    var iban: String?

    @Option(help: ArgumentHelp("Remittance reference, bound into the signature too.", valueName: "text"))
    var reference: String?

    @Flag(help: "Confirm the payment without asking.")
    var yes = false

    @OptionGroup var factors: FactorOptions

    /// The payment as it will be signed (IBAN without spaces); refused before any network when
    /// malformed, in the server's own words.
    var transaction: Transaction {
        get throws {
            let typed = Transaction(
                amount: amount, currency: currency.uppercased(), payee: .init(name: payee, iban: iban),
                reference: reference)
            switch TransactionRules.normalized(typed) {
            case .success(let normalized): return normalized
            case .failure(let violation): throw AppError("request.invalid", violation.reason)
            }
        }
    }

    func run() async throws {
        let payment = try transaction
        let app = try await AppState.open(global)
        let spinner = Spinner()
        let collector = try factors.collector(confirmPayments: yes, spinner: spinner)
        let words = Terminal.words
        let tokens = try await spinner.during(words.text("terminal.spinner.preparingPayment")) {
            try await app.client.pay(payment, using: collector)
        }
        if let exemption = tokens.exemption {
            print(words.text("terminal.pay.exempt", ["reason": words.text(Self.reasonKey(exemption))]))
        }
        let digest = TokenClaims(accessToken: tokens.accessToken)?.txn ?? payment.digest
        print(
            words.text(
                "terminal.pay.authorised",
                [
                    "amount": words.amount(payment.amount, currency: payment.currency),
                    "payee": Terminal.shown(payment.payee.name), "digest": digest,
                ]))
    }

    /// The words of an exemption, as the pages and messages say it.
    static func reasonKey(_ exemption: Exemption) -> String {
        switch exemption {
        case .lowValue: "exemption.lowValue"
        case .trustedBeneficiary: "exemption.trustedBeneficiary"
        case .recurring: "exemption.recurring"
        case .tra: "exemption.tra"
        case .accountInfo180d: "exemption.accountInfo180d"
        }
    }
}
