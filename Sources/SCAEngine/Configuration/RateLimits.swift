/// The budgets that bound sending one-time codes and opening challenges, across challenges
/// and server instances (the store counts them). An empty list is no limit for that scope.
///
/// The defaults: a phone number or e-mail address gets at most 3 codes in 10 minutes and
/// 10 a day, which an honest user who mistyped twice never reaches; a user (both channels)
/// twice that; one client address 20 in 10 minutes and 100 a day, since pumping fraud spreads
/// over many numbers from few addresses; and the whole server 300 a minute, which caps the
/// bill of a runaway attack at a known rate. One client address may open 60 challenges a
/// minute and 600 an hour. Behind a proxy set `trustedProxyHeader`, or every client is the
/// proxy's address; addresses shared by many users (carrier-grade NAT) may need more.
package struct RateLimits: Sendable, Equatable {
    /// Codes sent to one phone number or e-mail address (keyed by a keyed hash of it).
    package var sendsPerDestination = [RateWindow(count: 3, seconds: 600), RateWindow(count: 10, seconds: 86_400)]
    /// Codes sent to one user, whatever the channel.
    package var sendsPerUser = [RateWindow(count: 6, seconds: 600), RateWindow(count: 20, seconds: 86_400)]
    /// Codes asked for from one client address.
    package var sendsPerClient = [RateWindow(count: 20, seconds: 600), RateWindow(count: 100, seconds: 86_400)]
    /// Codes sent by the whole server (every instance on the database).
    package var sendsGlobal = [RateWindow(count: 300, seconds: 60)]
    /// Challenges opened from one client address.
    package var challengesPerClient = [RateWindow(count: 60, seconds: 60), RateWindow(count: 600, seconds: 3_600)]
    /// Operations created by one backend: a partner client, or an admin key. A
    /// bank's backend speaks for all its users from one address, so an operation's challenge
    /// is counted here instead of in `challengesPerClient`.
    package var operationsPerCaller = [RateWindow(count: 600, seconds: 60), RateWindow(count: 10_000, seconds: 3_600)]

    package init() {}

    /// The send budgets of `serve --demo`: enough for the getting-started walkthroughs run twice over
    /// (a curl login, a payment, `sca login`, the hosted sign-in and consent, each sending
    /// codes to the same demo phones), which the production budgets of 3 codes per number in
    /// 10 minutes would stop half-way. Only the send budgets change, and only those the
    /// configuration does not set itself.
    static let demoSendsPerDestination = [RateWindow(count: 30, seconds: 600), RateWindow(count: 200, seconds: 86_400)]
    static let demoSendsPerUser = [RateWindow(count: 60, seconds: 600), RateWindow(count: 400, seconds: 86_400)]

    /// Applies the demo's send budgets to every scope whose key is not in `configured`.
    mutating func applyDemoSends(except configured: Set<String>) {
        if !configured.contains("sendLimitsPerDestination") { sendsPerDestination = Self.demoSendsPerDestination }
        if !configured.contains("sendLimitsPerUser") { sendsPerUser = Self.demoSendsPerUser }
    }

    /// Every scope by its configuration key.
    var byKey: [(key: String, windows: [RateWindow])] {
        [
            ("sendLimitsPerDestination", sendsPerDestination), ("sendLimitsPerUser", sendsPerUser),
            ("sendLimitsPerClient", sendsPerClient), ("sendLimitsGlobal", sendsGlobal),
            ("challengeLimitsPerClient", challengesPerClient),
            ("operationLimitsPerCaller", operationsPerCaller),
        ]
    }

    /// - Throws: `ConfigurationError` for a count below 1, a window outside 1 s … 7 days, the
    ///   same window twice in one scope, or more than 4 windows in one scope.
    func validate() throws {
        for (key, windows) in byKey {
            guard windows.count <= 4 else { throw ConfigurationError("\(key): at most 4 windows") }
            guard Set(windows.map(\.seconds)).count == windows.count else {
                throw ConfigurationError("\(key): each window length at most once")
            }
            for window in windows {
                guard window.count >= 1 else { throw ConfigurationError("\(key): counts must be at least 1, got \(window)") }
                guard (1...RateWindow.maximumSeconds).contains(window.seconds) else {
                    throw ConfigurationError("\(key): windows must be between 1 second and 7 days, got \(window)")
                }
            }
        }
    }
}
