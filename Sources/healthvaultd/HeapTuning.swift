import CLinux

/// How healthvaultd's allocator keeps its memory (docs/APPLE_HEALTH_IMPORT.md, "Cost"): the
/// daemon reads on one thread and writes on others, and glibc's default of an arena per thread
/// (up to eight per core) kept what one thread allocated and another freed in heaps it never
/// returned. A 1,000,000-record import grew the daemon to about 400 MB resident; with two arenas
/// and large blocks (a batch's arrays) in mappings of their own, to about 160 MB, at the same speed.
///
/// Blocks are mapped apart from 4 MiB (256 KiB until 2026-11-27) and a heap keeps up to 8 MiB free
/// at its top: an answer of a day of samples (its samples, its JSON, its frame: blocks of 400 KB to
/// 1 MB) then reuses the heap's pages rather than faulting in fresh zeroed ones each time, which
/// was about a quarter of the daemon's CPU for such a query. With 64 clients: 680 to 720 calls/s,
/// p99 283 to 201-208 ms; the import's peak 169 to 172-175 MB (docs/PERFORMANCE.md).
enum HeapTuning {
    static let arenas: Int32 = 2
    static let mappedBlockBytes: Int32 = 4 * 1024 * 1024
    static let trimmedTopBytes: Int32 = 8 * 1024 * 1024

    /// Applies the settings; call first, before the daemon's threads allocate.
    static func apply() {
        _ = healthvault_tune_heap(arenas, mappedBlockBytes, trimmedTopBytes)
    }
}
