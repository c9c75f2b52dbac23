import Foundation
import Hummingbird
import SCACore
import SCAEngine
import SCALocalization

// The live overview: the last hour of this instance's counters as sparklines.
extension OperatorConsole {
    static let overviewPage = "/console/overview"

    /// `GET /console/overview`.
    func overview(_ request: Request) async throws -> Response {
        let (state, actor): (PageState, ConsoleOperator)
        switch try await visit(request) {
        case .signedIn(let visited, let signedIn): (state, actor) = (visited, signedIn)
        case .elsewhere(let response): return response
        }
        let words = words(request, here: Self.overviewPage)
        let hour: ActivitySnapshot
        do {
            hour = try await console.liveOverview(by: actor)
        } catch let problem as Problem where problem.status == 403 {
            return forbidden(words: words)
        }
        var values = nav(state, actor)
        values["sparklines"] = ActivityHistory.Series.allCases.map {
            ConsoleSparkline.values($0, counts: hour.counts[$0] ?? [], words: words)
        }
        let end = hour.firstMinute.addingTimeInterval(TimeInterval(ActivityHistory.minutes * 60))
        values["window"] = words.text(
            "console.overview.window", ["from": words.dateTime(hour.firstMinute), "to": words.dateTime(end)])
        return renderer.page(
            "console-overview", title: words.text("console.overview.title"), values, words: words, frame: frame(words))
    }
}
