import Foundation
import PostgresNIO

/// A PostgreSQL connection URL, as libpq writes them:
/// `postgres://user:password@host:port/database?sslmode=disable`.
///
/// `postgresql://` works too; user, password and database are percent-decoded; the port
/// defaults to 5432. Query parameters:
/// - `sslmode`: `disable`, `prefer` (the default, as in libpq), `require` (encrypted, the
///   certificate not checked, as in libpq), `verify-ca` (certificate checked, not the host
///   name) or `verify-full` (both).
/// - `search_path`: the schema(s) to work in, sent at connection start-up, so that several
///   independent stores can share one database (tests use a schema each).
/// - `application_name`: shown in `pg_stat_activity`.
/// - `pool_size`: the most connections one store opens (default 10). Every instance opens its
///   own pool: keep instances × pool size under the server's `max_connections`.
///
/// Any other parameter is refused, so that a misspelt `sslmode` never silently falls back.
package struct PostgresDatabaseURL: Sendable, Equatable {
    package var host: String
    package var port: Int
    package var username: String
    package var password: String?
    package var database: String?
    package var sslMode: String
    package var searchPath: String?
    package var applicationName: String?
    package var poolSize: Int

    static let sslModes = ["disable", "prefer", "require", "verify-ca", "verify-full"]

    /// - Throws: ``PostgresStoreError`` naming what is wrong; the message never repeats the password.
    package init(_ url: String) throws {
        guard let components = URLComponents(string: url),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else {
            throw PostgresStoreError(reason: "the database URL must look like postgres://user:password@host:port/database")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresStoreError(reason: "the database URL has no host")
        }
        guard let username = components.user, !username.isEmpty else {
            throw PostgresStoreError(reason: "the database URL has no user name")
        }
        self.host = host
        port = components.port ?? 5432
        self.username = username
        password = components.password
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? nil : path
        sslMode = "prefer"
        poolSize = 10
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard Self.sslModes.contains(value) else {
                    throw PostgresStoreError(reason: "sslmode must be one of \(Self.sslModes.joined(separator: ", ")), got '\(value)'")
                }
                sslMode = value
            case "search_path": searchPath = value.isEmpty ? nil : value
            case "application_name": applicationName = value.isEmpty ? nil : value
            case "pool_size":
                guard let size = Int(value), (1...1_000).contains(size) else {
                    throw PostgresStoreError(reason: "pool_size must be a whole number from 1 to 1000, got '\(value)'")
                }
                poolSize = size
            default:
                throw PostgresStoreError(reason: "unknown database URL parameter '\(item.name)'")
            }
        }
    }

    /// The URL without its password, for logs and error messages.
    package var redacted: String {
        let target = database.map { "/\($0)" } ?? ""
        return "postgres://\(username)@\(host):\(port)\(target)"
    }

    /// Run-time parameters sent when a connection starts, before any statement.
    var startupParameters: [(String, String)] {
        var parameters: [(String, String)] = []
        if let searchPath { parameters.append(("search_path", searchPath)) }
        if let applicationName { parameters.append(("application_name", applicationName)) }
        return parameters
    }

    /// The TLS settings of `sslmode`.
    func tlsConfiguration() -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case "disable": return nil
        case "verify-full": break
        case "verify-ca": configuration.certificateVerification = .noHostnameVerification
        // libpq's prefer and require encrypt without checking the certificate.
        default: configuration.certificateVerification = .none
        }
        return configuration
    }

    /// For a pool of connections (what the store uses).
    package func clientConfiguration() throws -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        if let configuration = tlsConfiguration() {
            tls = sslMode == "prefer" ? .prefer(configuration) : .require(configuration)
        } else {
            tls = .disable
        }
        var result = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        result.options.additionalStartupParameters = startupParameters
        result.options.maximumConnections = poolSize
        return result
    }

    /// For a single connection (what the store's migrations use; tools and tests too).
    package func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        if let configuration = tlsConfiguration() {
            let context = try NIOSSLContext(configuration: configuration)
            tls = sslMode == "prefer" ? .prefer(context) : .require(context)
        } else {
            tls = .disable
        }
        var result = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        result.options.additionalStartupParameters = startupParameters
        return result
    }
}
