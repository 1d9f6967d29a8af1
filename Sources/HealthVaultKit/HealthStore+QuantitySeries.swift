public import Foundation
import VaultProtocol

extension HealthStore {
    /// One batch of the quantities of the `type` sample with this UUID: a series' quantities in
    /// order of their start dates, at most `limit` (0: as many as a batch holds, 10,000) from
    /// position `offset`; a sample that is not a series as its one quantity over its span; nil
    /// when this app sees no such sample (another app's, without the read grant, is answered as
    /// one that does not exist). The daemon may answer fewer than asked, to fit its frame;
    /// continue from `next`.
    public func seriesQuantities(
        of uuid: UUID,
        type: QuantityTypeIdentifier,
        offset: Int = 0,
        limit: Int = 0
    ) async throws -> SeriesBatch<QuantitySample.SeriesQuantity>? {
        let result = try await call(
            Method.queryQuantitySeries,
            QuantitySeriesQueryParams(quantityType: type, uuid: uuid, offset: offset, limit: limit),
            as: SeriesQuantitiesResult.self
        )
        return result.quantities.map { SeriesBatch(points: $0, next: result.next) }
    }
}

extension QuantitySeriesSampleQueryDescriptor {
    /// Every quantity of the matching samples, each with its date interval (HealthKit's
    /// `HKQuantitySeriesSampleQueryDescriptor.results(for:)`), read batch by batch: the samples
    /// by one sample query, a series' quantities by `query.quantitySeries` as they are needed (a
    /// sample deleted meanwhile is left out). In ascending order of start dates, or sample after
    /// sample with ``Options/orderByQuantitySampleStartDate``.
    public func results(for store: HealthStore) -> AsyncThrowingStream<Result, any Error> {
        let query = self
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await query.run(on: store) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Every result at once.
    public func result(for store: HealthStore) async throws -> [Result] {
        var results: [Result] = []
        try await run(on: store) { results.append($0) }
        return results
    }

    private func run(on store: HealthStore, _ yield: (Result) -> Void) async throws {
        let samples = try await store.samples(
            matching: SampleQueryDescriptor(
                predicates: [.quantitySample(type: quantityType, predicate: predicate)],
                sortDescriptors: [SampleSortDescriptor(.startDate)]
            )
        )
        .compactMap { sample -> QuantitySample? in
            if case .quantity(let quantity) = sample { quantity } else { nil }
        }
        let include = options.contains(.includeSample)
        var cursors = samples.map { Cursor(sample: $0, type: quantityType) }
        func emit(_ index: Int, _ entry: QuantitySample.SeriesQuantity) {
            yield(
                Result(
                    quantity: entry.quantity,
                    dateInterval: entry.dateInterval,
                    sample: include ? samples[index] : nil
                )
            )
        }
        if options.contains(.orderByQuantitySampleStartDate) {
            for index in cursors.indices {
                while let entry = try await cursors[index].next(from: store) {
                    try Task.checkCancellation()
                    emit(index, entry)
                }
            }
            return
        }
        // A merge of the samples' quantities by start date: a sample not yet opened waits under
        // its own start, which no quantity of it precedes; so it is read only when its turn may come.
        var heap = MinimumHeap<Key>()
        for index in cursors.indices {
            heap.insert(Key(date: samples[index].startDate, index: index))
        }
        while let key = heap.removeFirst() {
            try Task.checkCancellation()
            if let head = try await cursors[key.index].peek(from: store) {
                if head.dateInterval.start > key.date {
                    heap.insert(Key(date: head.dateInterval.start, index: key.index))
                    continue
                }
                emit(key.index, head)
                cursors[key.index].advance()
                if let after = try await cursors[key.index].peek(from: store) {
                    heap.insert(Key(date: after.dateInterval.start, index: key.index))
                }
            }
        }
    }

    /// Where a sample's quantities are read from: its one quantity, or its series batch by batch.
    private struct Cursor {
        let sample: QuantitySample
        let type: QuantityTypeIdentifier
        var buffer: [QuantitySample.SeriesQuantity] = []
        var position = 0
        /// The offset of the next batch to read; nil when there is none.
        var nextOffset: Int? = 0

        init(sample: QuantitySample, type: QuantityTypeIdentifier) {
            self.sample = sample
            self.type = type
            if sample.count == 1 {
                buffer = [
                    QuantitySample.SeriesQuantity(
                        quantity: sample.quantity,
                        dateInterval: DateInterval(start: sample.startDate, end: sample.endDate)
                    )
                ]
                nextOffset = nil
            }
        }

        /// The next quantity, read from the vault when the buffer is spent.
        mutating func peek(from store: HealthStore) async throws -> QuantitySample.SeriesQuantity? {
            while position == buffer.count {
                guard let offset = nextOffset,
                    let batch = try await store.seriesQuantities(of: sample.uuid, type: type, offset: offset)
                else {
                    nextOffset = nil
                    return nil
                }
                buffer = batch.points
                position = 0
                nextOffset = batch.next
                if buffer.isEmpty { nextOffset = nil }
            }
            return buffer[position]
        }

        mutating func advance() {
            position += 1
        }

        mutating func next(from store: HealthStore) async throws -> QuantitySample.SeriesQuantity? {
            guard let entry = try await peek(from: store) else { return nil }
            advance()
            return entry
        }
    }

    /// A sample's place in the merge: the start date nothing of it left precedes, then its rank.
    private struct Key: Comparable {
        let date: Date
        let index: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.date, lhs.index) < (rhs.date, rhs.index)
        }
    }
}

/// A binary heap giving its smallest element first.
private struct MinimumHeap<Element: Comparable> {
    private var elements: [Element] = []

    mutating func insert(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let first = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < elements.count, elements[left] < elements[smallest] { smallest = left }
            if right < elements.count, elements[right] < elements[smallest] { smallest = right }
            guard smallest != parent else { break }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
