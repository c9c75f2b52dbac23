import Logging

extension Logger.MetadataProvider {
    /// Adds `request` (the id of the request being served, from ``RequestInfo/current``) to
    /// every log line emitted while serving a request, so a service's line (`challenge
    /// completed`, `code sent`) can be matched with Hummingbird's lines and the client's
    /// report of the same request. Outside a request (start-up, the admin CLI) it adds nothing.
    ///
    /// Install it on the logging system (`LoggingSystem.bootstrap(_:metadataProvider:)`) or on
    /// one logger (`Logger(label:metadataProvider:)`, the default of `SCAServices.make`).
    package static let requestInfo = Logger.MetadataProvider {
        guard let info = RequestInfo.current else { return [:] }
        return ["request": .string(info.requestID)]
    }
}
