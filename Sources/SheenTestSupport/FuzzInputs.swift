import Foundation

/// The regression inputs kept for a fuzz target (Tests/FuzzRegressions/TARGET), then its seed
/// corpus (Fuzz/Corpus/TARGET): absolute paths, each folder sorted.
public func fuzzInputs(_ target: String) -> [String] {
  var out: [String] = []
  for dir in ["Tests/FuzzRegressions/\(target)", "Fuzz/Corpus/\(target)"] {
    let d = ReferenceImage.packageRoot.appendingPathComponent(dir).path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: d)) ?? []
    out += names.sorted().map { d + "/" + $0 }
  }
  return out
}
