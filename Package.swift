// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "HealthVault",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HealthModel", targets: ["HealthModel"])
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1")
    ],
    targets: [
        .target(name: "HealthModel"),
        .testTarget(
            name: "HealthModelTests",
            dependencies: [
                "HealthModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
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
