import CLinux

/// How healthvaultd's allocator keeps its memory (docs/APPLE_HEALTH_IMPORT.md, "Cost"): the
/// daemon reads on one thread and writes on others, and glibc's default of an arena per thread
/// (up to eight per core) kept what one thread allocated and another freed in heaps it never
/// returned. A 1,000,000-record import grew the daemon to about 400 MB resident; with two arenas
/// and large blocks (a batch's arrays) in mappings of their own, to about 160 MB, at the same speed.
enum HeapTuning {
    static let arenas: Int32 = 2
    static let mappedBlockBytes: Int32 = 256 * 1024

    /// Applies the settings; call first, before the daemon's threads allocate.
    static func apply() {
        _ = healthvault_tune_heap(arenas, mappedBlockBytes)
    }
}
