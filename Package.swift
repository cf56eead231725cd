// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Sheen",
  products: [
    .library(name: "SheenRaster", targets: ["SheenRaster"]),
    .library(name: "SheenText", targets: ["SheenText"]),
    .library(name: "SheenLayers", targets: ["SheenLayers"]),
    .library(name: "SheenKit", targets: ["SheenKit"]),
    .library(name: "SheenX11", targets: ["SheenX11"]),
    .executable(name: "sheen", targets: ["sheen"]),
  ],
  targets: [
    // MARK: - System libraries

    .systemLibrary(
      name: "CX11",
      pkgConfig: "x11 xext",
      providers: [.apt(["libx11-dev", "libxext-dev"])]
    ),
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),

    // MARK: - Public API

    .target(name: "SheenRaster", dependencies: ["CPNG"]),
    .target(name: "SheenText", dependencies: ["SheenRaster"]),
    .target(name: "SheenLayers", dependencies: ["SheenRaster", "SheenText"]),
    .target(name: "SheenPlatform", dependencies: ["SheenRaster"]),
    .target(
      name: "SheenKit",
      dependencies: ["SheenRaster", "SheenText", "SheenLayers", "SheenPlatform"]
    ),
    .target(name: "SheenDemo", dependencies: ["SheenKit"]),
    .target(name: "SheenX11", dependencies: ["CX11", "SheenPlatform", "SheenRaster"]),
    .executableTarget(
      name: "sheen",
      dependencies: [
        "SheenRaster", "SheenText", "SheenLayers", "SheenPlatform", "SheenKit", "SheenDemo", "SheenX11",
      ]
    ),

    // MARK: - Tests

    .testTarget(name: "SheenRasterTests", dependencies: ["SheenRaster"]),
    .testTarget(name: "SheenLayersTests", dependencies: ["SheenLayers"]),
    .testTarget(name: "SheenKitTests", dependencies: ["SheenKit"]),
    .testTarget(name: "SheenDemoTests", dependencies: ["SheenDemo", "SheenKit"]),
    .testTarget(name: "SheenTextTests", dependencies: ["SheenText"]),
    .testTarget(name: "SheenX11Tests", dependencies: ["SheenX11", "SheenPlatform"]),
  ]
)
