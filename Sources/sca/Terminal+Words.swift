import Foundation
import SCALocalization

extension Terminal {
    /// Everything this run says, in the language the user's environment names (`LC_ALL`, else
    /// `LC_MESSAGES`, else `LANG`; English for `C`, unset or a language that does not ship), and
    /// times in the user's own zone, which the text says. Chosen once: a run speaks one language
    /// from its first line to its last.
    ///
    /// A catalogue that does not load is a packaging mistake the catalogue test catches; here it
    /// only makes each line read as its key, and the command still runs.
    static let words = Localizer(
        catalogue: (try? Catalogue.bundled()) ?? Catalogue(entries: [:]),
        language: LocaleNegotiation.language(environment: ProcessInfo.processInfo.environment),
        timeZone: .current)
}
