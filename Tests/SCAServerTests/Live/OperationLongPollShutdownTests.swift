import Foundation
import HTTPTypes
import Logging
import SCACore
import ServiceLifecycle
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A held request (the phone's `GET /v1/operations/pending?wait=25`, the consent page's
/// `POST …/phone/status`) does not hold a graceful shutdown: the server answers it at once
/// with "nothing yet" and stops. The test server's clock never moves, so a 25 s hold can end
/// only by an answer or by the shutdown: no time is measured. The time limits only catch a
/// server that never stops; they leave room for the setup on a machine loaded by the suite.
@Suite("Held requests and shutdown")
struct OperationLongPollShutdownTests {
    @Test("a graceful shutdown answers a waiting long poll at once with an empty list, and the server stops", .timeLimit(.minutes(5)))
    func shutdownAnswersLongPoll() async throws {
        try await TestServer { $0.port = 0 }.run { api in
            let (_, phone) = try await api.userWithPhone("waiting@example.com")
            let nonce = try await phone.nonce()
            let path = "/v1/operations/pending"
            let headers = try phone.headers(.get, path, body: Data(), nonce: nonce)
            let (body, status) = try await Self.heldThroughShutdown(api) { port in
                var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)?wait=25")))
                for field in headers { request.setValue(field.value, forHTTPHeaderField: field.name.rawName) }
                return request
            }
            #expect(status == 200)
            #expect(try WireJSON.decoder().decode(PendingOperationsResponse.self, from: body).operations.isEmpty)
        }
    }

    @Test("a graceful shutdown answers the consent page's held status request at once with pending, and the server stops", .timeLimit(.minutes(5)))
    func shutdownAnswersPhoneStatus() async throws {
        try await TestServer { PartnerConsentTests.configure(&$0); $0.port = 0 }.runLive { api, url in
            let scene = try await ConsentPhoneApprovalTests.scene(api, url: url, email: "held@example.com", phone: "+33612349011")
            let waiting = try await ConsentPhoneApprovalTests.choosePhone(scene)
            let csrf = try #require(ConsentPhoneApprovalTests.dataAttribute("data-csrf", in: waiting.text))
            let cookies = scene.browser.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let (body, status) = try await Self.heldThroughShutdown(api) { port in
                var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(scene.path)/phone/status")))
                request.httpMethod = "POST"
                request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
                request.setValue(cookies, forHTTPHeaderField: "Cookie")
                request.httpBody = Data("csrf=\(RedirectURIRules.formEncoded(csrf))&wait=25".utf8)
                return request
            }
            #expect(status == 200)
            #expect(try WireJSON.decoder().decode(PhoneApprovalStatusBody.self, from: body).status == "pending")
        }
    }

    /// Starts a second listener on the same services, sends it `request`, begins a graceful
    /// shutdown while the request is held, and answers what came back once the server stopped
    /// (a server that does not stop reaches the test's time limit).
    static func heldThroughShutdown(
        _ api: APIClient, _ request: @escaping @Sendable (Int) throws -> URLRequest
    ) async throws -> (body: Data, status: Int?) {
        let (ports, announce) = AsyncStream<Int>.makeStream()
        let app = try api.services.application { port in announce.yield(port) }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [], logger: Logger(label: "test")))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            var held = try request(try #require(await iterator.next()))
            held.timeoutInterval = 60
            let answer = Task { [held] in try await URLSession.shared.data(for: held) }
            // Let the request reach the server and be held.
            try await Task.sleep(for: .milliseconds(500))
            await group.triggerGracefulShutdown()
            let (body, response) = try await answer.value
            try await tasks.next()
            return (body, (response as? HTTPURLResponse)?.statusCode)
        }
    }
}
