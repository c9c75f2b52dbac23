import Foundation
import HTTPTypes
import Logging
import SCACore
import ServiceLifecycle
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A phone's long poll (`GET /v1/operations/pending?wait=25`) does not hold a graceful
/// shutdown: the server answers it at once with an empty list and stops.
@Suite("Operation long poll and shutdown")
struct OperationLongPollShutdownTests {
    @Test("a graceful shutdown answers a waiting long poll at once with an empty list, and the server stops", .timeLimit(.minutes(2)))
    func shutdownAnswersLongPoll() async throws {
        try await TestServer { $0.port = 0 }.run { api in
            let (_, phone) = try await api.userWithPhone("waiting@example.com")
            let nonce = try await phone.nonce()
            let path = "/v1/operations/pending"
            let headers = try phone.headers(.get, path, body: Data(), nonce: nonce)

            let (ports, announce) = AsyncStream<Int>.makeStream()
            let app = api.services.application { port in announce.yield(port) }
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "test")))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var iterator = ports.makeAsyncIterator()
                let port = try #require(await iterator.next())
                var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)?wait=25")))
                for field in headers { request.setValue(field.value, forHTTPHeaderField: field.name.rawName) }
                request.timeoutInterval = 60
                let clock = ContinuousClock()
                let started = clock.now
                let poll = Task { try await URLSession.shared.data(for: request) }
                // Let the poll reach the server and start waiting (it waits up to 25 s).
                try await Task.sleep(for: .milliseconds(500))
                await group.triggerGracefulShutdown()
                let (body, response) = try await poll.value
                let elapsed = clock.now - started
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect(try WireJSON.decoder().decode(PendingOperationsResponse.self, from: body).operations.isEmpty)
                // Answered before its 25 s wait ran out: the shutdown ended it, not the wait. (The
                // margin is for a loaded machine, where the request itself can take seconds.)
                #expect(elapsed < .seconds(20), "the long poll held the shutdown for \(elapsed)")
                // The server stops (a hang would reach the time limit).
                try await tasks.next()
            }
        }
    }
}
