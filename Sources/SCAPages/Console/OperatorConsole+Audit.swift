import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCAStorage

// The audit view: the trail filtered by user, event and days, newest first a page at a time;
// its export in `sca-server audit export`'s lines; and the chain checked against the last
// signed checkpoint.
extension OperatorConsole {
    static let auditPage = "/console/audit"

    /// What the audit form asked for, as typed (to fill the form again) and as a filter.
    struct AuditQuery {
        var user = ""
        var event = ""
        var from = ""
        var to = ""
        var filter = AuditFilter()

        /// The form's fields as a query string, for the next page and the export.
        var fields: [URLQueryItem] {
            [("user", user), ("event", event), ("from", from), ("to", to)].filter { !$0.1.isEmpty }
                .map { URLQueryItem(name: $0.0, value: $0.1) }
        }
    }

    /// `GET /console/audit?user=&event=&from=&to=&before=`.
    func audit(_ request: Request) async throws -> Response {
        let (state, actor): (PageState, ConsoleOperator)
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        let words = words(request, here: request.uri.description)
        let parameters = request.uri.queryParameters
        guard let query = auditQuery(request), let before = sequence(parameters.get("before")) else {
            return message("console.audit.badFilter.title", PageText("console.audit.badFilter.message"), words: words, status: .badRequest)
        }
        let entries: [AuditEntry]
        do {
            entries = try await console.auditEntries(matching: query.filter, before: before, by: actor)
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
        var values = nav(state, actor)
        values["user"] = query.user
        values["from"] = query.from
        values["to"] = query.to
        values["events"] = AuditEvent.allCases.map(\.rawValue).sorted().map { event -> [String: Any] in
            var option: [String: Any] = ["value": event]
            if event == query.event { option["selected"] = true }
            return option
        }
        let mayReadUsers = actor.may(.usersRead)
        values["entries"] = entries.map { entry -> [String: Any] in
            var row = ConsoleTimeline.row(entry, words: words)
            row["sequence"] = String(entry.sequence)
            row["name"] = entry.draft.event
            row["outcome"] = entry.draft.outcome
            if let userID = entry.draft.userID {
                row["userId"] = userID
                if mayReadUsers, InputRules.isWellFormedID(userID, prefix: "usr") { row["userHref"] = "\(Self.usersPage)/\(userID)" }
            }
            return row
        }
        values["hasEntries"] = !entries.isEmpty
        values["caption"] = words.text(before == nil ? "console.audit.caption.newest" : "console.audit.caption.older", count: entries.count)
        if entries.count == ConsoleService.auditPageLength, let last = entries.last {
            values["olderHref"] = link(Self.auditPage, query.fields + [URLQueryItem(name: "before", value: String(last.sequence))])
        }
        if before != nil { values["newestHref"] = link(Self.auditPage, query.fields) }
        values["exportHref"] = link("\(Self.auditPage)/export", query.fields)
        return renderer.page(
            "console-audit", title: words.text("console.audit.title"), values, words: words, frame: frame(words))
    }

    /// `GET /console/audit/export?user=&event=&from=&to=`: the filtered range, oldest first, in
    /// `sca-server audit export`'s lines.
    func auditExport(_ request: Request) async throws -> Response {
        let actor: ConsoleOperator
        switch try await visit(request) {
        case .signedIn(_, let signedIn): actor = signedIn
        case .elsewhere(let response): return response
        }
        let words = words(request, here: Self.auditPage)
        guard let query = auditQuery(request) else {
            return message("console.audit.badFilter.title", PageText("console.audit.badFilter.message"), words: words, status: .badRequest)
        }
        let export: AuditExport
        do {
            export = try await console.auditExport(query.filter, by: actor)
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: AuditExport.contentType, .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"audit-export.jsonl\"",
            ],
            body: ResponseBody { writer in
                try await export.write { try await writer.write(ByteBuffer(bytes: $0)) }
                try await writer.finish(nil)
            })
    }

    /// `GET /console/audit/verify`: the whole chain walked, and checked against the checkpoint
    /// the server last wrote. Its own page, since the walk reads every entry.
    func auditVerify(_ request: Request) async throws -> Response {
        let (state, actor): (PageState, ConsoleOperator)
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        let words = words(request, here: "\(Self.auditPage)/verify")
        let status: AuditChainStatus
        do {
            status = try await console.auditChain(by: actor)
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
        var values = nav(state, actor)
        let entries = String(status.intactEntries)
        if let brokenAt = status.brokenAt {
            values["chain"] = words.text("console.audit.chain.broken", ["sequence": String(brokenAt), "entries": entries])
            values["chainClass"] = "bad"
            values["chainDetail"] = status.broken
        } else {
            values["chain"] = words.text("console.audit.chain.intact", count: Int(status.intactEntries))
            values["chainClass"] = "ok"
        }
        if let checkpoint = status.checkpoint {
            if let problem = checkpoint.problem {
                values["checkpoint"] = words.text("console.audit.checkpoint.problem")
                values["checkpointClass"] = "bad"
                values["checkpointDetail"] = problem
            } else if let sequence = checkpoint.sequence, let time = checkpoint.time {
                values["checkpoint"] = words.text(
                    "console.audit.checkpoint.matches", ["sequence": String(sequence), "time": words.dateTime(time)])
                values["checkpointClass"] = "ok"
            }
        } else {
            values["checkpoint"] = words.text("console.audit.checkpoint.none")
            values["checkpointClass"] = "warn"
        }
        values["intact"] = status.isIntact
        return renderer.page(
            "console-audit-verify", title: words.text("console.audit.verify.title"), values, words: words,
            status: .ok, frame: frame(words))
    }

    /// The audit form's fields, checked; nil for a field that is not what it must be.
    private func auditQuery(_ request: Request) -> AuditQuery? {
        let parameters = request.uri.queryParameters
        var query = AuditQuery(
            user: (parameters.get("user") ?? "").trimmingCharacters(in: .whitespaces), event: parameters.get("event") ?? "",
            from: parameters.get("from") ?? "", to: parameters.get("to") ?? "")
        guard let from = day(query.from), let to = day(query.to) else { return nil }
        // The last day is included: the range ends at the next midnight.
        let end = to.map { $0.addingTimeInterval(86_400) }
        guard let filter = try? AuditFilter.checked(userID: query.user, event: query.event, from: from, to: end) else { return nil }
        query.filter = filter
        return query
    }

    /// A `yyyy-mm-dd` day's first instant in UTC: `.some(nil)` for an empty field, nil for one
    /// that is not a day.
    private func day(_ text: String) -> Date?? {
        guard !text.isEmpty else { return .some(nil) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        guard text.utf8.count == 10, let date = formatter.date(from: text) else { return nil }
        return .some(date)
    }

    /// A `before` sequence number: `.some(nil)` when absent, nil when not a positive number.
    private func sequence(_ text: String?) -> Int64?? {
        guard let text, !text.isEmpty else { return .some(nil) }
        guard let sequence = Int64(text), sequence > 0 else { return nil }
        return .some(sequence)
    }

    /// `path` with `items` as its query. A `+` is encoded too: a query reads it as a space,
    /// and a phone number searched for starts with one.
    func link(_ path: String, _ items: [URLQueryItem]) -> String {
        guard !items.isEmpty else { return path }
        var components = URLComponents()
        components.path = path
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? path
    }
}
