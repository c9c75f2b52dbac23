import Foundation
import Testing

/// The tests' own `sca-server serve` children (``ServeProcess``).
@Suite("ServeProcess: sca-server as a child of the tests")
struct ServeProcessTests {
    @Test(
        "a server let go without stop() (a failed or cancelled test) goes with it instead of outliving the run",
        .enabled(if: (try? ServerPair.serverBinary()) != nil, "sca-server binary not built"))
    func releasedServerStops() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sca-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var server: ServeProcess? = try ServeProcess(directory: directory, environment: [:])
        let port = try await #require(server).port()
        #expect(ServeProcess.acceptsConnections(port: port))

        server = nil
        let gone = await ServeProcess.firstRefusal(port: port, within: .seconds(20)) != nil
        #expect(gone, "the server still listens on \(port) after its ServeProcess was released")
    }
}
