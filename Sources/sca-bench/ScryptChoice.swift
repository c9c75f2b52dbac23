import ArgumentParser
import SCACore

/// The scrypt cost of an in-process server's password hashes.
enum ScryptChoice: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// What a production server uses (N=2^15, r=8, p=1: 32 MiB per hash).
    case `default`
    /// The insecure fast parameters of the tests (N=2^4, r=1, p=1), to measure everything else.
    case test

    var parameters: PasswordHasher.Parameters {
        switch self {
        case .default: .default
        case .test: .insecureFastForTesting
        }
    }

    /// E.g. `default (N=2^15,r=8,p=1)`.
    var summary: String {
        "\(rawValue) (N=2^\(parameters.logN),r=\(parameters.r),p=\(parameters.p))"
    }
}
