import Foundation

/// What the resident memory holds, from /proc/self/smaps: each mapping's resident kilobytes,
/// summed by what is mapped (a library or font file by name, the heap, anonymous memory, thread
/// stacks), largest first, with the private dirty part (memory this process wrote, which no
/// other process shares and the kernel cannot drop) apart. `sheen bench` prints it after its
/// frames when SHEEN_MEMORY_MAP=1 is in the environment.
func residentBreakdown(top: Int = 25) -> String {
  // Read to the end in a loop (a /proc file has no size; one read returns a page or so).
  guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"),
    let smaps = try? String(decoding: handle.readToEnd() ?? Data(), as: UTF8.self)
  else {
    return "resident memory by mapping: /proc/self/smaps cannot be read\n"
  }
  var totals: [String: (rss: Int, dirty: Int)] = [:]
  var current = "?"
  for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard let first = fields.first else { continue }
    if first.contains("-"), fields.count >= 5, first.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
      // A mapping's header: address range, permissions, offset, device, inode[, path].
      if fields.count >= 6 {
        let path = fields[5...].joined(separator: " ")
        current = path.hasPrefix("/") ? (path as NSString).lastPathComponent : path
      } else {
        current = "[anonymous]"
      }
      continue
    }
    guard fields.count >= 2, let kb = Int(fields[1]) else { continue }
    if first == "Rss:" {
      totals[current, default: (0, 0)].rss += kb
    } else if first == "Private_Dirty:" {
      totals[current, default: (0, 0)].dirty += kb
    }
  }
  let sorted = totals.sorted { $0.value.rss > $1.value.rss }
  let all = totals.values.reduce(0) { $0 + $1.rss }
  let dirty = totals.values.reduce(0) { $0 + $1.dirty }
  var out = String(
    format: "resident memory by mapping (smaps): %.1f MB, %.1f MB of it private and written\n",
    Double(all) / 1024, Double(dirty) / 1024)
  for (name, t) in sorted.prefix(top) where t.rss > 0 {
    out += String(
      format: "  %8.1f MB  (%6.1f MB written)  %@\n", Double(t.rss) / 1024, Double(t.dirty) / 1024, name)
  }
  let rest = sorted.dropFirst(top).reduce(0) { $0 + $1.value.rss }
  if rest > 0 {
    out += String(format: "  %8.1f MB  in %d other mappings\n", Double(rest) / 1024, sorted.count - top)
  }
  return out
}
