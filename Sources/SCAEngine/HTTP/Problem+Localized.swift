import SCACore
import SCALocalization

extension Problem {
    /// The problem with its `title` and `detail` in `language`, for an app that shows them to a
    /// person; nil when it must stay as it is, in English.
    ///
    /// Only a problem whose English words are the catalogue's English for its code is
    /// translated: the catalogue translates those sentences, not whatever else a problem of the
    /// same code may say (a detail naming a field, a limit, a scope). And only whole: if the
    /// title or the detail has no entry in `language`, neither is translated, so a reader never
    /// gets half a sentence in one language and half in another. The `code` and every other
    /// field are the same in every language: clients decide on them, never on the words.
    func localized(in language: Language, catalogue: Catalogue) -> Problem? {
        guard language != .english else { return nil }
        guard let title = Self.translation(of: title, at: ["problem.\(code.rawValue).title"], in: language, catalogue) else {
            return nil
        }
        var localized = self
        localized.title = title
        if let detail {
            let keys = Self.detailKeys[code] ?? ["problem.\(code.rawValue).detail"]
            guard let translated = Self.translation(of: detail, at: keys, in: language, catalogue) else { return nil }
            localized.detail = translated
        }
        return localized
    }

    /// The codes answered with more than one detail, each wording with its own key.
    private static let detailKeys: [ProblemCode: [String]] = [
        .userLocked: ["problem.user.locked.detail.permanent", "problem.user.locked.detail.temporary"],
        .serverBusy: ["problem.server.busy.detail.contention", "problem.server.busy.detail.hashing"],
        .recoveryFailed: ["problem.recovery.failed.detail.proof", "problem.recovery.failed.detail.usedUp"],
        .recoveryLocked: ["problem.recovery.locked.detail.permanent", "problem.recovery.locked.detail.temporary"],
    ]

    /// The entry in `language` of the first key whose English is `english`; nil when none is, or
    /// when `language` lacks that entry (the catalogue would answer English in its place).
    private static func translation(of english: String, at keys: [String], in language: Language, _ catalogue: Catalogue) -> String? {
        guard let key = keys.first(where: { catalogue.text($0, in: .english) == english }),
            catalogue.entries[language]?[key] != nil
        else { return nil }
        return catalogue.text(key, in: language)
    }
}
