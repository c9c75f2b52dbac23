// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "swift-sca",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        // The libraries with public API: the SDK, the core types it names, and the store protocol.
        .library(name: "SCACore", targets: ["SCACore"]),
        .library(name: "SCAStorage", targets: ["SCAStorage"]),
        .executable(name: "sca-server", targets: ["sca-server"]),
        .library(name: "SCAClient", targets: ["SCAClient"]),
        .executable(name: "sca", targets: ["sca"]),
        .executable(name: "sca-bench", targets: ["sca-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // The hosted sign-in and consent pages.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // sca-bench's raw mode only: a keep-alive HTTP client cheap enough not to be the bottleneck.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // HTTPS and mutual TLS served by the server itself (tls.* settings).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // The syslog-over-TLS audit stream's connection.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        // Traces (tracing.* settings): the API in the engine and the stores, the OTLP/HTTP
        // exporter in the composition root. gRPC is left out: its trait would build a second stack.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // Domain, wire types and crypto primitives. No I/O: shared by server and SDK.
        .target(
            name: "SCACore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Every word a person reads, in en, fr, de, es, it and nl: one JSON catalogue per language,
        // CLDR plural rules, language negotiation, and amounts, dates and IBANs as each language
        // writes them. Foundation only, so the server, its pages and the terminal app can all use it.
        .target(name: "SCALocalization", resources: [.copy("Catalogue")]),
        // Passkeys: the WebAuthn relying party's checks (CBOR, COSE, authenticator data,
        // attestation), pure code like SCACore but kept apart so the SDK does not carry X.509.
        .target(
            name: "SCAWebAuthn",
            dependencies: [
                "SCACore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The store protocol, written in atomic domain operations.
        // Tracing: the one helper the stores and the engine open their spans with (a no-op unless
        // the server was given a tracer).
        .target(
            name: "SCAStorage",
            dependencies: ["SCACore", .product(name: "Tracing", package: "swift-distributed-tracing")]
        ),
        // Embedded default backend (GRDB, WAL).
        .target(
            name: "SCAStorageSQLite",
            dependencies: [
                "SCAStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // Shared-database backend for several server instances (PostgresNIO).
        .target(
            name: "SCAStoragePostgres",
            dependencies: [
                "SCAStorage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // Services and HTTP routes.
        // The server in four modules, each depending only on those before it (docs/architecture.md):
        // the engine (factors, challenges, tokens, devices, operations, webhooks, and their routes);
        // partner access (OAuth, consents, CIBA), which reaches the engine only through its API;
        // the hosted pages; and the composition root that assembles them into one server.
        .target(
            name: "SCAEngine",
            dependencies: [
                "SCACore",
                "SCALocalization",
                "SCAWebAuthn",
                "SCAStorage",
                "SCAStorageSQLite",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Outbound requests (webhooks, gateways): redirects and the connected address under our control.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The client certificate of a mutual-TLS connection, or the one a trusted proxy forwards.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // Spans of requests, outbound calls and password hashes, on the tracer the server is given.
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .target(
            name: "SCAPartners",
            dependencies: [
                "SCAEngine",
                "SCALocalization",
                "SCACore",
                "SCAStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "SCAPages",
            dependencies: [
                "SCAPartners",
                "SCALocalization",
                "SCAEngine",
                "SCACore",
                "SCAStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        .target(
            name: "SCAServer",
            dependencies: [
                "SCAPages",
                "SCAPartners",
                "SCAEngine",
                "SCACore",
                "SCAStorage",
                "SCAStorageSQLite",
                "SCAStoragePostgres",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                // HTTPS: the server's certificate, reloaded when its files change.
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                // SIGHUP reloads the certificate.
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The OTLP/HTTP exporter behind tracing.enabled.
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            resources: [.copy("Resources/openapi.yaml")]
        ),
        .executableTarget(
            name: "sca-server",
            dependencies: [
                "SCAServer",
                "SCAEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The SDK: SCACore, Foundation and swift-crypto only, so an iOS app can embed it.
        .target(
            name: "SCAClient",
            dependencies: [
                "SCACore",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The terminal banking app.
        .executableTarget(
            name: "sca",
            dependencies: [
                "SCAClient",
                // Its prompts and messages, in the language the user's environment names.
                "SCALocalization",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Load harness: drives N concurrent clients through full flows over real HTTP.
        .executableTarget(
            name: "sca-bench",
            dependencies: [
                "SCAClient",
                "SCAServer",
                "SCAEngine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // What several test targets share (the hand-moved clock), written once.
        // It also holds the software passkey authenticator the server and SDK tests register with.
        .target(
            name: "SCATestSupport", dependencies: ["SCACore", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/SCATestSupport"),
        .testTarget(name: "SCACoreTests", dependencies: ["SCACore"], resources: [.copy("Vectors")]),
        // Completeness of every catalogue, CLDR plural samples, negotiation, formats.
        .testTarget(name: "SCALocalizationTests", dependencies: ["SCALocalization"]),
        // Fixtures captured from Chromium's virtual authenticator (Fixtures/capture-fixtures.py).
        .testTarget(
            name: "SCAWebAuthnTests",
            dependencies: ["SCAWebAuthn", "SCACore", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Fixtures")]
        ),
        // One conformance suite for every backend: SQLite always, PostgreSQL when
        // SCA_TEST_POSTGRES_URL is set.
        .testTarget(
            name: "SCAStorageTests",
            dependencies: [
                "SCAStorageSQLite", "SCAStoragePostgres", "SCAStorage", "SCACore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SCAClientTests",
            dependencies: [
                "SCATestSupport",
                "SCAClient",
                "SCAServer",
                "SCAEngine",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "SCAServerTests",
            dependencies: [
                "SCATestSupport",
                "SCAServer",
                "SCAEngine",
                "SCAPartners",
                // The phone's side of the hosted "Approve on your phone" tests is the real SDK.
                "SCAClient",
                "SCAStoragePostgres",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // The audit checkpoint tests cut entries from the SQLite file as an attacker would.
                .product(name: "GRDB", package: "GRDB.swift"),
                // The long-poll shutdown test runs the server in a service group.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The TLS tests make their certificates and keys in the test itself.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The store round trip tests count the spans the real stores record.
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            // The schemathesis run loads its format generators from the source tree.
            exclude: ["Schemathesis"]
        ),
    ]
)

// The micro-benchmarks (ordo-one's Benchmark): the primitives a flow pays for, and whole flows
// through the in-process router. They use this package's own declarations, so they are its
// targets, added with their dependency only when SCA_BENCHMARKS is set: the default build and CI
// never compile them (docs/benchmarks.md, "Reproduce").
if Context.environment["SCA_BENCHMARKS"] != nil {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets += [
        .executableTarget(
            name: "SCAFlows",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "SCAServer",
                "SCAEngine",
                "SCACore",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Benchmarks/SCAFlows",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The cryptography each flow pays for: P-256 verify, ES256 JWT sign and verify, TOTP,
        // the transaction digest, scrypt at default cost.
        .executableTarget(
            name: "Primitives",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "SCACore",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/Primitives",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
}
