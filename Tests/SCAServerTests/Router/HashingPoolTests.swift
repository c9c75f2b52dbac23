import Dispatch
import Foundation
import Logging
import SCACore
import SCAEngine
import Synchronization
import Testing

@Suite("Password hashing on a bounded pool")
struct HashingPoolTests {
    @Test("a full queue answers 503 server.busy with Retry-After, never 500; other routes still answer; the attempt is given back")
    func busyBeyondTheQueueLimit() async throws {
        let server = try await TestServer {
            $0.passwordHashConcurrency = 1
            $0.passwordHashQueueLimit = 2
        }
        try await server.run { api in
            let count = 12
            var users: [(id: String, challenge: String)] = []
            for index in 0..<count {
                let email = "busy\(index)@example.com"
                let id = try await api.createUser(email)
                users.append((id, try await api.startChallenge(email: email).challengeId))
            }
            let pool = api.services.passwordHashing
            let targets = users

            // Occupy the only hashing thread until the test says so: every proof now has to
            // wait, two in the queue, the others refused. No timing involved.
            let gate = DispatchSemaphore(value: 0)
            let (started, startedContinuation) = AsyncStream<Void>.makeStream()
            let blocker = Task {
                try await pool.run(.hash) {
                    startedContinuation.yield()
                    gate.wait()
                }
            }
            for await _ in started { break }

            let (answers, answered) = AsyncStream<(index: Int, response: APIResponse)>.makeStream()
            let burst = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, user) in targets.enumerated() {
                        group.addTask {
                            let response = try await api.prove(user.challenge, .password, "correct horse battery")
                            answered.yield((index, response))
                        }
                    }
                    try await group.waitForAll()
                }
                answered.finish()
            }

            var results: [(index: Int, response: APIResponse)] = []
            var iterator = answers.makeAsyncIterator()
            while results.count < count - pool.queueLimit, let next = await iterator.next() {
                results.append(next)
            }
            // Refused at once, while two wait behind the blocked thread.
            for (_, response) in results {
                #expect(response.status == 503)
                #expect(response.problem?.code == .serverBusy)
                #expect(response.headers[.retryAfter] == "1")
            }
            #expect(pool.waitingCount == pool.queueLimit)
            // Routes that do not hash are not starved meanwhile.
            #expect(try await api.send(.get, "/health/live").status == 200)
            #expect(try await api.startChallenge(email: "other@example.com").challengeId.hasPrefix("ch_"))

            gate.signal()
            try await blocker.value
            while let next = await iterator.next() { results.append(next) }
            try await burst.value

            let statuses = results.map(\.response.status)
            #expect(statuses.count == count)
            #expect(statuses.filter { $0 == 503 }.count == count - pool.queueLimit)
            #expect(statuses.filter { $0 == 200 }.count == pool.queueLimit)
            #expect(!statuses.contains(500))

            // A refused proof was never evaluated: it costs the user no attempt, and the user can
            // simply try again.
            let refused = try #require(results.first { $0.response.status == 503 })
            let user = users[refused.index]
            let view = try await api.send(.get, "/admin/v1/users/\(user.id)", admin: true).decode(UserResponse.self)
            #expect(view.lock.failedAttempts == 0)
            #expect(try await api.prove(user.challenge, .password, "correct horse battery").status == 200)
        }
    }

    @Test("default limits: 1,000 concurrent password proofs all get an ordinary answer")
    func thousandConcurrentProofs() async throws {
        // Two thousand info lines would drown the test output.
        var quiet = Logger(label: "sca-server")
        quiet.logLevel = .warning
        let server = try await TestServer(logger: quiet)
        #expect(server.services.passwordHashing.concurrency == ProcessInfo.processInfo.activeProcessorCount)
        try await server.run { api in
            // Unknown users: the decoy path hashes like a real password check, and no lockout
            // or per-user reservation gets in the way of the count.
            var challenges: [String] = []
            for index in 0..<1_000 {
                challenges.append(try await api.startChallenge(email: "crowd\(index)@example.com").challengeId)
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for challenge in challenges {
                    group.addTask { try await api.prove(challenge, .password, "correct horse battery").status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 1_000)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count))")
        }
    }

    @Test("jobs run first in, first out, at most `concurrency` at once, each on a pool thread")
    func fifoAndBound() async throws {
        let pool = PasswordHashingPool(concurrency: 1, queueLimit: 100)
        let gate = DispatchSemaphore(value: 0)
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let blocker = Task {
            try await pool.run(.hash) {
                startedContinuation.yield()
                gate.wait()
            }
        }
        for await _ in started { break }

        let probe = PoolProbe()
        var jobs: [Task<Void, any Error>] = []
        for index in 0..<20 {
            jobs.append(Task { try await pool.run(.hash) { probe.order.withLock { $0.append(index) } } })
            // Submitted one after the other, so the queue's order is the loop's.
            while pool.waitingCount < index + 1 { await Task.yield() }
        }
        gate.signal()
        try await blocker.value
        for job in jobs { try await job.value }
        #expect(probe.order.withLock { $0 } == Array(0..<20))

        let wide = PasswordHashingPool(concurrency: 2, queueLimit: 1_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    _ = try await wide.run(.hash) {
                        let now = probe.running.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
                        var seen = probe.most.load(ordering: .sequentiallyConsistent)
                        while now > seen {
                            let exchange = probe.most.compareExchange(expected: seen, desired: now, ordering: .sequentiallyConsistent)
                            if exchange.exchanged { break }
                            seen = exchange.original
                        }
                        // A little work, so that jobs overlap when they can.
                        var sum = 0
                        for value in 0..<20_000 { sum &+= value }
                        probe.running.wrappingSubtract(1, ordering: .sequentiallyConsistent)
                        return sum
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(probe.most.load(ordering: .sequentiallyConsistent) <= 2)
        #expect(wide.waitingCount == 0)
    }
}

/// What the pool's jobs saw, shared with the test: the order they ran in, how many ran at once.
private final class PoolProbe: Sendable {
    let order = Mutex<[Int]>([])
    let running = Atomic<Int>(0)
    let most = Atomic<Int>(0)
}
