// swift-tools-version:6.3
// Benchmarks live in their own package so the default build and CI never compile them.
// Run from this directory: `swift package benchmark`.
import PackageDescription

let package = Package(
    name: "sca-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "swift-sca", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .executableTarget(
            name: "SCAFlows",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "SCAServer", package: "swift-sca"),
                .product(name: "SCACore", package: "swift-sca"),
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
                .product(name: "SCACore", package: "swift-sca"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Benchmarks/Primitives",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
