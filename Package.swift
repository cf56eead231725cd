// swift-tools-version: 6.0
import PackageDescription

// Release builds of the targets every frame runs through (rasterizer, text, layers, SheenUI's
// updates) leave out Swift's dynamic exclusivity checks: each access to a class's stored property
// from code the compiler cannot see through cost a call and a look-up in a thread-local set of
// accesses, about 7% of the demo's steady 1080p frame (and 6% of a SheenUI tap's update). The
// static checks stay, and debug builds (every test) still check at run time.
let frameSpeed: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

// SheenUI's generic code (a view's value walked by its type at run time) is also made visible to
// the modules that use it (cross-module optimization), which can then specialize it for their
// view types (fewer of the runtime's generic metadata look-ups in an update; measured with the
// commit that added it, in the README's SheenUI section).
let crossModule: [SwiftSetting] = [
  .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))
]

// The release `sheen` carries Swift's runtime and Foundation inside it (their static libraries,
// `-static-stdlib`) instead of loading them as shared libraries: the process then maps only the
// code and data it uses, without each library's symbol tables, relocations and the neighbours
// of every page touched. The demo's resident memory at 1080p drops by about 5 MB (README,
// "Resident memory"); frames are as fast or faster (calls into the runtime skip the PLT). The
// archives refer to each other in circles, so they are linked as one group. Debug builds (the
// tests) keep the shared libraries.
let staticFoundation = [
  "Foundation", "FoundationEssentials", "FoundationInternationalization", "_FoundationICU", "CoreFoundation",
  "_FoundationCShims", "_FoundationCollections",
]
let staticSwift: [LinkerSetting] = [
  .unsafeFlags(
    ["-static-stdlib", "-Xlinker", "--start-group"] + staticFoundation.flatMap { ["-Xlinker", "-l\($0)"] }
      + ["-Xlinker", "--end-group"],
    .when(configuration: .release))
]

let package = Package(
  name: "Sheen",
  products: [
    .library(name: "SheenRaster", targets: ["SheenRaster"]),
    .library(name: "SheenText", targets: ["SheenText"]),
    .library(name: "SheenLayers", targets: ["SheenLayers"]),
    .library(name: "SheenKit", targets: ["SheenKit"]),
    .library(name: "SheenUI", targets: ["SheenUI"]),
    .library(name: "SheenX11", targets: ["SheenX11"]),
    .library(name: "SheenWayland", targets: ["SheenWayland"]),
    .executable(name: "sheen", targets: ["sheen"]),
  ],
  targets: [
    // MARK: - System libraries

    .systemLibrary(
      name: "CX11",
      pkgConfig: "x11 xext xi xcursor xfixes x11-xcb xcb-present",
      providers: [
        .apt([
          "libx11-dev", "libxext-dev", "libxi-dev", "libxcursor-dev", "libxfixes-dev", "libx11-xcb-dev",
          "libxcb-present-dev",
        ])
      ]
    ),
    .systemLibrary(
      name: "CPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    .systemLibrary(
      name: "CJPEG",
      pkgConfig: "libturbojpeg",
      providers: [.apt(["libturbojpeg0-dev"])]
    ),
    .systemLibrary(
      name: "CFontconfig",
      pkgConfig: "fontconfig",
      providers: [.apt(["libfontconfig-dev"])]
    ),
    .systemLibrary(
      name: "CHarfBuzz",
      pkgConfig: "harfbuzz",
      providers: [.apt(["libharfbuzz-dev"])]
    ),
    .systemLibrary(
      name: "CFriBidi",
      pkgConfig: "fribidi",
      providers: [.apt(["libfribidi-dev"])]
    ),
    .systemLibrary(
      name: "CUnibreak",
      pkgConfig: "libunibreak",
      providers: [.apt(["libunibreak-dev"])]
    ),
    .systemLibrary(
      name: "CThai",
      pkgConfig: "libthai",
      providers: [.apt(["libthai-dev"])]
    ),
    .systemLibrary(
      name: "CWayland",
      pkgConfig: "wayland-client wayland-cursor xkbcommon",
      providers: [.apt(["libwayland-dev", "libxkbcommon-dev"])]
    ),

    // MARK: - Public API

    .target(name: "SheenRaster", dependencies: ["CPNG", "CJPEG"], swiftSettings: frameSpeed),
    // Typed command-line options, strict values and `--help` text, for the `sheen` subcommands.
    .target(name: "SheenCommandLine"),
    .target(
      name: "SheenText",
      dependencies: ["SheenRaster", "CFontconfig", "CHarfBuzz", "CFriBidi", "CUnibreak", "CThai"],
      swiftSettings: frameSpeed),
    .target(name: "SheenLayers", dependencies: ["SheenRaster", "SheenText"], swiftSettings: frameSpeed),
    .target(name: "SheenPlatform", dependencies: ["SheenRaster"]),
    .target(
      name: "SheenKit",
      dependencies: ["SheenRaster", "SheenText", "SheenLayers", "SheenPlatform"]
    ),
    .target(
      name: "SheenUI", dependencies: ["SheenKit", "SheenLayers", "SheenRaster"],
      swiftSettings: frameSpeed + crossModule),
    .target(
      name: "SheenDemo", dependencies: ["SheenKit", "SheenUI", "SheenLayers", "SheenPlatform", "SheenRaster"]),
    .target(name: "SheenX11", dependencies: ["CX11", "SheenPlatform", "SheenRaster"]),
    .target(
      name: "SheenWayland",
      dependencies: ["CWayland", "CXdgShell", "SheenPlatform", "SheenRaster", "SheenText"]),
    .executableTarget(
      name: "sheen",
      dependencies: [
        "SheenRaster", "SheenText", "SheenLayers", "SheenPlatform", "SheenKit", "SheenDemo", "SheenUI",
        "SheenX11", "SheenWayland", "SheenCommandLine",
      ],
      linkerSettings: staticSwift
    ),

    // MARK: - Implementation details

    // xdg-shell glue generated by wayland-scanner and checked in (Scripts/generate-xdg-shell.sh).
    .target(name: "CXdgShell", dependencies: ["CWayland"]),
    // wlroots' virtual pointer, for the end-to-end Wayland input tests under sway.
    .target(name: "CWaylandTestProtocols", dependencies: ["CWayland"]),
    // A minimal Wayland compositor offering wp_fractional_scale_v1, which Debian 12's compositors
    // lack, for the tests (a C program over libwayland-server).
    .executableTarget(
      name: "sheen-wayland-test-compositor",
      linkerSettings: [.linkedLibrary("wayland-server")]
    ),

    // MARK: - Tests

    .target(name: "SheenTestSupport", dependencies: ["SheenRaster"]),
    .testTarget(name: "SheenRasterTests", dependencies: ["SheenRaster", "SheenTestSupport"]),
    .testTarget(name: "SheenLayersTests", dependencies: ["SheenLayers", "SheenTestSupport"]),
    .testTarget(name: "SheenKitTests", dependencies: ["SheenKit"]),
    .testTarget(name: "SheenCommandLineTests", dependencies: ["SheenCommandLine", "SheenTestSupport"]),
    .testTarget(
      name: "SheenUITests",
      dependencies: ["SheenUI", "SheenKit", "SheenPlatform", "SheenRaster", "SheenText", "SheenTestSupport"]),
    .testTarget(
      name: "SheenDemoTests",
      dependencies: [
        "SheenDemo", "SheenKit", "SheenLayers", "SheenPlatform", "SheenRaster", "SheenTestSupport",
      ]
    ),
    // The seed articles' UIKit code, verbatim in Seeds/ (kept out of the format lint by run.sh).
    .testTarget(
      name: "SheenSeedTests",
      dependencies: ["SheenKit", "SheenUI", "SheenLayers", "SheenRaster", "SheenTestSupport"]
    ),
    .testTarget(name: "SheenTextTests", dependencies: ["SheenText", "SheenTestSupport"]),
    .testTarget(
      name: "SheenX11Tests", dependencies: ["SheenX11", "SheenPlatform", "SheenKit", "SheenTestSupport"]
    ),
    .testTarget(
      name: "SheenWaylandTests",
      dependencies: [
        "SheenWayland", "CWaylandTestProtocols", "SheenPlatform", "SheenRaster", "SheenKit",
        "SheenTestSupport",
      ]
    ),
  ]
)
