import Foundation

/// Heap allocations so far, when the process runs with Tests/Support/allocation-counter.c
/// preloaded (`LD_PRELOAD`); nil otherwise. Benchmarks report allocations per frame with it.
let allocationCount: (@Sendable () -> UInt64)? = {
  guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "sheen_allocation_count") else {
    return nil
  }
  let f = unsafeBitCast(symbol, to: (@convention(c) () -> UInt64).self)
  return { f() }
}()
