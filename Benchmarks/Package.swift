// swift-tools-version:6.1

// HealthVault's benchmarks, a package of their own so the product's build and CI do not compile
// the benchmark framework. Run with `make bench` from the checkout's root.
import PackageDescription

let package = Package(
    name: "HealthVaultBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "HealthVault", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The same SQLCipher library, for the raw prepared-statement baselines.
        .systemLibrary(name: "CSQLCipherBench", pkgConfig: "sqlcipher"),
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                "CSQLCipherBench",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "HealthModel", package: "HealthVault"),
                .product(name: "VaultCrypto", package: "HealthVault"),
                .product(name: "VaultStore", package: "HealthVault"),
                .product(name: "AuditLog", package: "HealthVault"),
                .product(name: "VaultEngine", package: "HealthVault"),
                .product(name: "HealthVaultKit", package: "HealthVault"),
                .product(name: "HealthInterchange", package: "HealthVault"),
                .product(name: "AppleHealthExportGenerator", package: "HealthVault"),
            ],
            path: "StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
