import Foundation
import SheenCommandLine
import SheenDemo
import SheenUI

/// `sheen preview NAME -o OUT.png`: a SwiftUI preview (a `PreviewProvider` registered with
/// `PreviewRenderer`) rendered to PNG; `--list` prints the names.
func runPreview(_ args: [String]) -> Int32 {
  var status: Int32 = 0
  guard let parsed = parseCommandLine(PreviewArgs.command, args, status: &status) else { return status }
  DemoPreviews.register()
  if parsed[PreviewArgs.list] {
    for n in PreviewRenderer.registeredNames { print(n) }
    return 0
  }
  guard let name = parsed.positionals.first else {
    writeError("sheen preview: a preview's name is required\n\(PreviewArgs.command.shortUsage)")
    return 64
  }
  guard let output = parsed[PreviewArgs.output] else {
    writeError("sheen preview: --output is required\n\(PreviewArgs.command.shortUsage)")
    return 64
  }
  let size = parsed[PreviewArgs.size].map { CGSize(width: $0.width, height: $0.height) }
  let scale = parsed[PreviewArgs.scale] ?? 2
  if let d = parsed[PreviewArgs.size], Double(max(d.width, d.height)) * scale > 16384 {
    // Refused before anything is made (a 131072-pixel canvas failed only when allocated).
    writeError(
      "sheen preview: --size \(d.width)x\(d.height) at --scale \(scale) is a canvas of "
        + "\(Int((Double(d.width) * scale).rounded(.up)))x\(Int((Double(d.height) * scale).rounded(.up))) pixels, "
        + "over 16384 on a side\n" + PreviewArgs.command.shortUsage)
    return 64
  }
  do {
    guard
      let surface = try PreviewRenderer.render(
        named: name, size: size, scale: CGFloat(scale))
    else {
      writeError(
        "sheen preview: no preview named \(quotedForMessage(name)); there are: "
          + PreviewRenderer.registeredNames.joined(separator: ", "))
      return 2
    }
    try surface.writePNG(to: output)
    return 0
  } catch {
    writeError("sheen preview: \(error)")
    return 1
  }
}
