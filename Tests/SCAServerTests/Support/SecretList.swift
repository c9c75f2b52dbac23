import Synchronization

/// The secrets a test used, collected as the flows run.
final class SecretList: Sendable {
    private let secrets = Mutex<[String]>([])

    var all: [String] { secrets.withLock { $0 } }

    func add(_ values: String...) { add(values) }

    func add(_ values: [String]) {
        secrets.withLock { $0.append(contentsOf: values.filter { !$0.isEmpty }) }
    }
}
