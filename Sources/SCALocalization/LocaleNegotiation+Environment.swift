extension LocaleNegotiation {
    /// The variables a POSIX program reads for the language of its messages, strongest first.
    package static let messageLocaleVariables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    /// The language a program run from a shell speaks, as POSIX programs choose it: the first
    /// of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set and not empty decides, and nothing
    /// after it is read. Its value is `language[_territory][.codeset][@modifier]`
    /// (`de_DE.UTF-8`, `fr_BE`, `nl`); only the language counts, as for a request.
    ///
    /// English when that value is `C` or `POSIX` (the plain locale, `C.UTF-8` included), when
    /// none is set, and when it names a language that does not ship: a person who asked for
    /// Portuguese reads the reference language rather than a guess at their second one.
    /// - Parameter environment: the process's environment, or a test's.
    package static func language(environment: [String: String]) -> Language {
        guard let setting = messageLocaleVariables.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty })
        else { return .english }
        let name = setting.prefix { $0 != "." && $0 != "@" }
        return language(ofTag: name) ?? .english
    }
}
