// swift-tools-version: 6.0
import PackageDescription

// A server team's own package, as MockStore/README.md tells one to write it: it depends on VoiceDebriefCredit by
// path (here the repository root, two folders up) and uses the MockStoreTesting product alone.
let package = Package(
    name: "ConsumerPackage",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "VoiceDebriefCredit", path: "../..")
    ],
    targets: [
        .testTarget(
            name: "ConsumerPackageTests",
            dependencies: [.product(name: "MockStoreTesting", package: "VoiceDebriefCredit")])
    ]
)
