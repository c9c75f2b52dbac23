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
        )
    ]
)
