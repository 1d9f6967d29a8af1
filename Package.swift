// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "HealthVault",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HealthModel", targets: ["HealthModel"]),
        .library(name: "VaultCrypto", targets: ["VaultCrypto"]),
        .library(name: "VaultStore", targets: ["VaultStore"]),
        .library(name: "AuditLog", targets: ["AuditLog"]),
        .library(name: "VaultEngine", targets: ["VaultEngine"]),
        .library(name: "HealthVaultKit", targets: ["HealthVaultKit"]),
        .library(name: "HealthInterchange", targets: ["HealthInterchange"]),
        .library(name: "HealthReport", targets: ["HealthReport"]),
        // Realistic Apple Health exports of any size, for the tests and the import benchmark.
        .library(name: "AppleHealthExportGenerator", targets: ["AppleHealthExportGenerator"]),
        .executable(name: "healthvaultd", targets: ["healthvaultd"]),
        .executable(name: "healthvault", targets: ["healthvault"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    ],
    targets: [
        .target(name: "HealthModel"),
        // The few Linux calls Swift cannot make itself (prctl is variadic; stat without its struct): no
        // library to link.
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .target(name: "VaultCrypto", dependencies: ["CSodium"]),
        // SQLCipher 4 only: never link plain libsqlite3 as well (DESIGN.md decision 2).
        .systemLibrary(name: "CSQLCipher", pkgConfig: "sqlcipher", providers: [.apt(["libsqlcipher-dev"])]),
        // The signed audit log and its verifier: libsodium only, never SQLCipher (DESIGN.md).
        .target(name: "AuditLog", dependencies: ["VaultCrypto"]),
        // The store keeps the audit log in its database, appended in the access's transaction.
        .target(name: "VaultStore", dependencies: ["HealthModel", "VaultCrypto", "AuditLog", "CSQLCipher"]),
        // The one door to the store: apps, grants, the rules of access, every access audited. Its
        // blocking SQLCipher work runs on its own threads (NIOThreadPool), never the caller's.
        .target(
            name: "VaultEngine",
            dependencies: [
                "HealthModel", "VaultCrypto", "VaultStore", "AuditLog", "HealthInterchange",
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The socket protocol's messages and framing, shared by the daemon and its clients.
        .target(
            name: "VaultProtocol",
            dependencies: ["HealthModel", .product(name: "NIOCore", package: "swift-nio")]
        ),
        // A connection to the daemon: the handshake, calls, notifications (apps and the owner).
        .target(
            name: "VaultClient",
            dependencies: [
                "HealthModel", "VaultProtocol", "VaultCrypto",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]
        ),
        // Readers of other systems' files (Apple Health's export.zip, its folder or export.xml, and
        // its GPX routes) that stream HealthModel values: no vault, no I/O beyond the files handed in.
        .target(
            name: "HealthInterchange",
            dependencies: ["HealthModel", "CLinux", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // The owner's health report as one self-contained HTML page (docs/REPORT.md): HealthModel
        // values in, HTML and inline SVG out; nothing else.
        .target(name: "HealthReport", dependencies: ["HealthModel"]),
        // The app's client library, HealthKit's shape.
        .target(name: "HealthVaultKit", dependencies: ["HealthModel", "VaultClient", "VaultProtocol", "VaultCrypto"]),
        // healthvaultd's server: the socket, identities, limits, the engine behind it.
        .target(
            name: "VaultDaemon",
            dependencies: [
                "HealthModel", "HealthInterchange", "VaultCrypto", "VaultStore", "AuditLog", "VaultEngine",
                "VaultProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // What the command-line tools share: passphrases, key files, one-line errors.
        .target(name: "CommandSupport", dependencies: ["VaultCrypto", "HealthModel", "VaultClient", "VaultStore"]),
        .executableTarget(
            name: "healthvaultd",
            dependencies: [
                "VaultDaemon", "VaultStore", "VaultCrypto", "VaultProtocol", "VaultClient", "CommandSupport", "CLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "healthvault",
            dependencies: [
                "HealthModel", "VaultCrypto", "VaultStore", "AuditLog", "VaultProtocol", "VaultClient",
                "CommandSupport", "HealthInterchange", "HealthReport", "VaultDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The demo's example apps, written against HealthVaultKit only.
        .executableTarget(name: "example-stepcounter", dependencies: ["HealthVaultKit"], path: "Examples/StepCounter"),
        .executableTarget(
            name: "example-sleeptracker",
            dependencies: ["HealthVaultKit"],
            path: "Examples/SleepTracker"
        ),
        // A run with live statistics, and the heart-rate strap it reads from (one executable, two apps).
        .executableTarget(name: "example-runtracker", dependencies: ["HealthVaultKit"], path: "Examples/RunTracker"),
        // Fixtures and random model values shared by the test targets.
        .target(
            name: "HealthModelTestSupport",
            dependencies: ["HealthModel", .product(name: "PropertyBased", package: "swift-property-based")],
            path: "Tests/HealthModelTestSupport",
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "HealthModelTests",
            dependencies: [
                "HealthModel", "HealthModelTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Child processes for the tests, without Foundation's Process.run() (Tests/ProcessTestSupport).
        .target(name: "ProcessTestSupport", path: "Tests/ProcessTestSupport"),
        // Writes generated Apple Health exports (the reader's tests, the import benchmark).
        .target(name: "AppleHealthExportGenerator", path: "Tests/AppleHealthExportGenerator"),
        .testTarget(name: "VaultCryptoTests", dependencies: ["VaultCrypto"]),
        .testTarget(name: "HealthReportTests", dependencies: ["HealthReport", "HealthModel"]),
        .testTarget(
            name: "HealthInterchangeTests",
            dependencies: [
                "HealthInterchange", "HealthModel", "HealthModelTestSupport", "AppleHealthExportGenerator",
                "ProcessTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "AuditLogTests", dependencies: ["AuditLog", "VaultCrypto", "HealthModelTestSupport"]),
        .testTarget(
            name: "VaultStoreTests",
            dependencies: [
                "VaultStore", "AuditLog", "HealthModelTestSupport", "ProcessTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "VaultEngineTests",
            dependencies: [
                "VaultEngine", "VaultStore", "AuditLog", "VaultCrypto", "HealthModelTestSupport", "HealthInterchange",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "HealthModel", "HealthInterchange", "HealthVaultKit", "VaultClient", "VaultProtocol", "VaultStore",
                "VaultCrypto",
                "VaultDaemon",
                "AuditLog", "CommandSupport", "HealthModelTestSupport", "ProcessTestSupport",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Saves batches until killed: the crash-safety test runs it and kills it with SIGKILL.
        .executableTarget(name: "vault-crash-writer", dependencies: ["VaultStore"], path: "Tests/CrashWriter"),
    ],
    swiftLanguageModes: [.v6]
)

// One set of settings for every target (as in apple/swift-log).
for target in package.targets where [.executable, .test, .regular].contains(target.type) {
    var settings = target.swiftSettings ?? []
    // Require `any` for existential types.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // Members are visible only through modules the file imports itself.
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // Imports are internal unless marked public: dependencies do not leak into the public API.
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    target.swiftSettings = settings
}
