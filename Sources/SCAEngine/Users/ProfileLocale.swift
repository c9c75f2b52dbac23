import Foundation
import SCACore
import SCALocalization

/// The rules for a profile's `locale` and `zoneinfo` (OpenID Connect's claim names), and how a
/// stored value is read back. The engine's and not the core's: what counts as a language is
/// what the catalogue ships, which only the engine knows.
///
/// Only a language the server can write in is kept, and only its language subtag: the messages
/// are per language, so `de-AT` is stored as `de`, and a tag naming no shipped language is
/// refused rather than kept for a day it might ship (until then the person would read the
/// default language with no word of why).
enum ProfileLocale {
    /// Characters of a language tag: RFC 5646 advises room for 35.
    static let maxTagLength = 35

    /// The shipped language of a BCP 47 tag (`de`, `de-AT`, `fr-CA`; `fr_CA` too, the
    /// underscore OpenID Connect tells relying parties to accept), or why it is refused.
    static func language(ofTag tag: String) -> Result<Language, DisplayTextViolation> {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        let wellFormed = tag.utf8.count <= maxTagLength
            && subtags.allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
            && subtags.first.map { (2...8).contains($0.count) && $0.allSatisfy(\.isLetter) } == true
        guard wellFormed else {
            return .failure(.init(field: "locale", reason: "locale must be a BCP 47 language tag such as de or de-AT"))
        }
        guard let language = LocaleNegotiation.language(ofTag: tag[...]) else {
            return .failure(.init(
                field: "locale",
                reason: "locale \(tag) names a language this server does not write in; it writes "
                    + Language.allCases.map(\.rawValue).joined(separator: ", ")))
        }
        return .success(language)
    }

    /// The IANA zone named `identifier` (`Europe/Berlin`, or `UTC`), exactly as the time zone
    /// database spells it, or why it is refused. Abbreviations, offsets and the database's
    /// old one-word names (`CET`, `EST`, `GMT+1`, `Japan`) that `TimeZone` would also take are
    /// refused: some do not follow a place's summer time, and an area and a place say plainly
    /// which clock the user lives by.
    ///
    /// `TimeZone.knownTimeZoneIdentifiers` is not asked: on Linux it is ICU's list of canonical
    /// names, which lacks zones as current as `Asia/Kolkata` (ICU keeps `Asia/Calcutta`).
    static func zone(_ identifier: String) -> Result<TimeZone, DisplayTextViolation> {
        let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
        let areaAndPlace = identifier.utf8.count <= 64 && parts.count >= 2
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_+-".contains($0)) } }
            && parts[0].first?.isLetter == true
        // `TimeZone` answers an unknown name with nil, and one it only interprets (`UTC` is
        // `GMT` to it) with another identifier.
        guard identifier == "UTC" || areaAndPlace, let zone = TimeZone(identifier: identifier),
            identifier == "UTC" || zone.identifier == identifier
        else {
            return .failure(.init(
                field: "zoneinfo", reason: "zoneinfo must be an IANA time zone such as Europe/Berlin, or UTC"))
        }
        return .success(zone)
    }

    /// What a profile stores for a requested `locale`: its language's code (`de-AT` → `de`), or
    /// nil for an empty string, which clears it (JSON's `null` cannot be told from an absent
    /// field, and an absent field keeps what is stored).
    static func stored(locale: String) -> Result<String?, DisplayTextViolation> {
        locale.isEmpty ? .success(nil) : language(ofTag: locale).map { Optional($0.rawValue) }
    }

    /// What a profile stores for a requested `zoneinfo`: the zone's identifier, or nil for an
    /// empty string, which clears it.
    static func stored(zoneinfo: String) -> Result<String?, DisplayTextViolation> {
        zoneinfo.isEmpty ? .success(nil) : zone(zoneinfo).map { _ in zoneinfo }
    }

    /// The language a stored `locale` names; nil when none is stored (or one no longer ships).
    static func language(stored locale: String?) -> Language? {
        locale.flatMap { LocaleNegotiation.language(ofTag: $0[...]) }
    }

    /// The zone a stored `zoneinfo` names; nil when none is stored.
    static func timeZone(stored zoneinfo: String?) -> TimeZone? {
        zoneinfo.flatMap { TimeZone(identifier: $0) }
    }
}
