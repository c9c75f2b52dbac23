import Foundation
import Testing

@testable import SCALocalization

@Suite struct DateTimeFormatTests {
    /// 2023-11-14T22:13:20Z.
    static let moment = Date(timeIntervalSince1970: 1_700_000_000)
    /// 2024-07-01T08:05:00Z, in Paris's summer time.
    static let summer = Date(timeIntervalSince1970: 1_719_821_100)

    let catalogue: Catalogue

    init() throws { catalogue = try Catalogue.bundled() }

    @Test func withoutAZoneTheTimeIsUTCAndSaysSo() {
        let texts: [Language: String] = [
            .english: "14 November 2023 at 22:13 UTC",
            .french: "14 novembre 2023 à 22:13 UTC",
            .german: "14. November 2023 um 22:13 UTC",
            .spanish: "14 de noviembre de 2023, 22:13 UTC",
            .italian: "14 novembre 2023 alle 22:13 UTC",
            .dutch: "14 november 2023 om 22:13 UTC",
        ]
        for (language, text) in texts {
            #expect(DateTimeFormat.text(Self.moment, in: language, timeZone: nil, catalogue: catalogue) == text)
        }
    }

    @Test func aKnownZoneShowsItsLocalTimeAndOffset() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        // 22:13 UTC is 23:13 in Paris in November (UTC+1), and the date moves past midnight in Tokyo.
        #expect(
            DateTimeFormat.text(Self.moment, in: .french, timeZone: paris, catalogue: catalogue)
                == "14 novembre 2023 à 23:13 UTC+1")
        #expect(
            DateTimeFormat.text(Self.summer, in: .english, timeZone: paris, catalogue: catalogue)
                == "1 July 2024 at 10:05 UTC+2")
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        #expect(
            DateTimeFormat.text(Self.moment, in: .german, timeZone: tokyo, catalogue: catalogue)
                == "15. November 2023 um 07:13 UTC+9")
    }

    @Test func offsetsNameHalfHoursAndWestwardZones() throws {
        #expect(DateTimeFormat.zoneName(TimeZone(identifier: "Asia/Kolkata"), at: Self.moment) == "UTC+5:30")
        #expect(DateTimeFormat.zoneName(TimeZone(identifier: "America/Sao_Paulo"), at: Self.moment) == "UTC-3")
        #expect(DateTimeFormat.zoneName(TimeZone(identifier: "Europe/London"), at: Self.moment) == "UTC")
        #expect(DateTimeFormat.zoneName(nil, at: Self.moment) == "UTC")
    }

    @Test func theLocalizerUsesItsZone() throws {
        let localizer = Localizer(catalogue: catalogue, language: .dutch, timeZone: TimeZone(identifier: "Europe/Amsterdam"))
        #expect(localizer.dateTime(Self.moment) == "14 november 2023 om 23:13 UTC+1")
    }
}
