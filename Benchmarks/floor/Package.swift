// swift-tools-version:6.1
import PackageDescription

// The least a server on sca-server's stack (Hummingbird 2, GRDB 7 on SQLite in WAL mode) does to
// answer a challenge: not built by `swift build` or `swift test` at the repository's root, only
// by Benchmarks/scripts/stack-floor.sh, which sets its costs beside sca-server's.
let package = Package(
    name: "stack-floor",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "stack-floor",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)
