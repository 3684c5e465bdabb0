// swift-tools-version: 5.9
import Foundation
import PackageDescription

/// The repository root (this file is `<root>/Examples/StoreKit2Store/Package.swift`). A path dependency's identity
/// is its folder's name, which differs per clone (CI clones into a temporary folder), so it is read here rather than
/// written down.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let rootIdentity = root.lastPathComponent

let package = Package(
    name: "StoreKit2Store",
    // Observation (`@Observable`) needs iOS 17 / macOS 14; the root's MockStoreTesting needs macOS 15 (tools 5.9
    // names no `.v15`, hence the string).
    platforms: [.macOS("15.0"), .iOS(.v17)],
    dependencies: [
        .package(path: "../..")
    ],
    targets: [
        // A store written as Apple's documentation shows it: Apple's StoreKit on Apple platforms, MockStoreKit (the
        // same API over a running mockstore) on Linux.
        .target(
            name: "StoreKit2Store",
            dependencies: [
                .product(name: "MockStoreKit", package: rootIdentity, condition: .when(platforms: [.linux]))
            ]),
        .testTarget(
            name: "StoreKit2StoreTests",
            dependencies: [
                "StoreKit2Store",
                .product(name: "MockStoreKit", package: rootIdentity, condition: .when(platforms: [.linux])),
                .product(name: "MockStoreTesting", package: rootIdentity),
            ]),
    ],
    // As typical app code: Swift 5 language mode.
    swiftLanguageVersions: [.v5]
)
