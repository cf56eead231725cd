import Foundation

#if canImport(Glibc)
  import Glibc
#endif

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
      } else if ProcessInfo.processInfo.environment["SHEEN_MEMORY_MAP_ANON"] == "1" {
        // Each anonymous mapping apart, by its size (SHEEN_MEMORY_MAP_ANON=1).
        let ends = first.split(separator: "-").compactMap { Int($0, radix: 16) }
        let kb = ends.count == 2 ? (ends[1] - ends[0]) / 1024 : 0
        current = "[anonymous \(first) \(kb) KB]"
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

/// What glibc's allocator holds (`malloc_info`): per arena (the main heap and one per thread
/// that allocated), the bytes it has from the system and the free bytes among them (freed
/// chunks it keeps: fragmentation, or room for the next allocations). Empty where there is no
/// `malloc_info`.
func allocatorBreakdown() -> String {
  #if canImport(Glibc)
    guard let h = dlopen(nil, RTLD_NOW), let f = dlsym(h, "malloc_info") else { return "" }
    let mallocInfo = unsafeBitCast(f, to: (@convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32).self)
    var buffer: UnsafeMutablePointer<CChar>? = nil
    var size = 0
    guard let stream = open_memstream(&buffer, &size) else { return "" }
    _ = mallocInfo(0, stream)
    fclose(stream)
    guard let buffer else { return "" }
    defer { free(buffer) }
    let xml = String(cString: buffer)
    // Each arena's <heap nr="N"> ... <total type="fast" size=".."/> <total type="rest" size=".."/>
    // <system type="current" size=".."/>; then the totals of all arenas.
    var out = "allocator (malloc_info):"
    var arena = "?"
    var free = 0
    for line in xml.split(separator: "\n") {
      let t = line.trimmingCharacters(in: .whitespaces)
      func value(_ key: String) -> Int? {
        guard let r = t.range(of: key + "=\"") else { return nil }
        return Int(t[r.upperBound...].prefix { $0.isNumber })
      }
      if t.hasPrefix("<heap nr=") {
        arena = "arena \(value("nr") ?? -1)"
        free = 0
      } else if t.hasPrefix("<total type=\"fast\"") || t.hasPrefix("<total type=\"rest\"") {
        free += value("size") ?? 0
      } else if t.hasPrefix("<system type=\"current\"") {
        out += String(
          format: " %@ %.1f MB (%.1f MB free);", arena, Double(value("size") ?? 0) / 1_048_576,
          Double(free) / 1_048_576)
        arena = "all"
        free = 0
      } else if t.hasPrefix("<total type=\"mmap\"") {
        out += String(
          format: " mmapped blocks %d, %.1f MB;", value("count") ?? 0, Double(value("size") ?? 0) / 1_048_576)
      }
    }
    return out + "\n"
  #else
    return ""
  #endif
}
