public import Foundation

/// Reads an Apple Health `export.xml` ("Export All Health Data" on an iPhone) as a stream of
/// items, in the order of the file, without holding more than one item and a window of the file.
///
/// ```swift
/// let reader = try AppleHealthReader(contentsOf: exportURL)
/// while let item = try reader.next() {
///     switch item {
///     case .record(let record): try store(record.sample(uuid: uuidFor(record.identity), source: sourceFor(record)))
///     case .skipped(let skipped): log(skipped.type, skipped.reason)
///     default: ...
///     }
/// }
/// print(reader.diagnostics)
/// ```
///
/// The reader is a pull iterator: ``next()`` reads just far enough to return the next item, so a
/// 2 GB export is read in chunks (``Options/chunkSize``) with a bounded window, whatever its size
/// (``AppleHealthDiagnostics/peakBufferBytes``). ``next()`` returns nil only once `</HealthData>`
/// has been read; a file that ends before is reported as ``AppleHealthReadError/Code-swift.struct/truncated``,
/// never as a shorter export. The reader tolerates what Apple's exports get wrong (docs/APPLE_HEALTH_IMPORT.md,
/// "The reader"), counts what it cannot store, and with ``Options/validates`` converts each item
/// with HealthModel as it reads, returning an item HealthModel refuses as ``AppleHealthItem/skipped(_:)``.
///
/// Not thread-safe: one reader is read by one task at a time.
public final class AppleHealthReader {
    /// How the reader reads.
    public struct Options: Hashable, Sendable {
        /// How many bytes are read from the file at a time (1 MiB).
        public var chunkSize: Int
        /// The largest single tag accepted (16 MiB): a tag larger than this is refused as
        /// ``AppleHealthReadError/Code-swift.struct/tooLarge`` rather than read into memory.
        public var maximumTagSize: Int
        /// The most children (metadata entries, readings, events, statistics, member records) one
        /// top-level element may have (100,000).
        public var maximumChildren: Int
        /// Whether each item is converted to HealthModel as it is read (true): an item HealthModel
        /// refuses comes as ``AppleHealthItem/skipped(_:)``, and the conversion is kept, so the
        /// importer's ``AppleHealthRecord/sample(uuid:source:)`` does not repeat it. With false,
        /// items come as read and convert when asked.
        public var validates: Bool

        public init(
            chunkSize: Int = 1 << 20,
            maximumTagSize: Int = 16 << 20,
            maximumChildren: Int = 100_000,
            validates: Bool = true
        ) {
            self.chunkSize = chunkSize
            self.maximumTagSize = maximumTagSize
            self.maximumChildren = maximumChildren
            self.validates = validates
        }
    }

    /// How far the reader has got.
    public struct Progress: Hashable, Sendable {
        /// Bytes of the file read and parsed.
        public let bytesRead: Int
        /// The file's size, when known.
        public let totalBytes: Int?
        /// Top-level elements read whole.
        public let items: Int
        /// Top-level `<Record>` elements read.
        public let records: Int
    }

    public let options: Options

    let scanner: XMLScanner
    var counts = AppleHealthDiagnostics()
    var ready: [AppleHealthItem] = []
    var readyIndex = 0
    var pendingUnsupported: AppleHealthUnsupported?
    var phase = Phase.prolog
    var frames: [Frame] = []
    var recordsRead = 0

    // The item under construction, by the frame that holds it.
    var record: AppleHealthRecord?
    var member: AppleHealthRecord?
    var correlation: AppleHealthCorrelation?
    var workout: AppleHealthWorkout?
    var activity: AppleHealthWorkoutActivity?
    var event: AppleHealthWorkoutEvent?
    var route: AppleHealthWorkoutRoute?
    /// A top-level element written with an end tag (`<Me ...></Me>`), emitted at its end.
    var pendingLeafItem: AppleHealthItem?
    var itemOffset = 0
    var itemLine = 1
    var itemChildren = 0

    var interned = [InternedValue](repeating: InternedValue(), count: InternSlot.allCases.count)

    enum Phase {
        case prolog
        case body
        /// `</HealthData>` read: what follows is counted, then the reader ends.
        case rootClosed
        case done
    }

    enum Frame {
        case healthData
        case record
        case member
        case heartRateVariabilityList
        case correlation
        case workout
        case workoutActivity
        case workoutEvent
        case workoutRoute
        /// A known element with nothing of interest inside, written with an end tag.
        case leaf(ElementName)
        /// A top-level element emitted when it ends (`Me`, `ExportDate`, `ActivitySummary`).
        case topLevelLeaf(ElementName)
        /// A top-level element HealthVault cannot store, skipped whole.
        case unsupported(name: [UInt8], element: String, type: String?, offset: Int)
        /// Anything inside an element that the reader does not read.
        case skipped(name: [UInt8])
    }

    /// Opens an export for reading; throws `unreadable` when the file cannot be opened.
    public convenience init(contentsOf url: URL, options: Options = Options()) throws(AppleHealthReadError) {
        self.init(source: try ByteSource(contentsOf: url), options: options)
    }

    /// Reads an export held in memory.
    public convenience init(bytes: [UInt8], options: Options = Options()) {
        self.init(source: ByteSource(bytes: bytes), options: options)
    }

    init(source: ByteSource, options: Options) {
        self.options = options
        scanner = XMLScanner(source: source, chunkSize: options.chunkSize, maximumTokenSize: options.maximumTagSize)
    }

    /// What the reader saw and did so far; complete once ``next()`` returned nil.
    public var diagnostics: AppleHealthDiagnostics {
        var diagnostics = counts
        diagnostics.exportVersion = scanner.exportVersion
        diagnostics.doctypeIrregularities = scanner.doctypeIrregularities
        diagnostics.peakBufferBytes = scanner.peakCapacity
        return diagnostics
    }

    public var progress: Progress {
        Progress(
            bytesRead: scanner.bytesConsumed,
            totalBytes: scanner.totalBytes,
            items: counts.completeItems,
            records: recordsRead
        )
    }

    /// The next item, or nil once the export has been read to `</HealthData>`.
    ///
    /// Throws ``AppleHealthReadError``: `truncated` when the file ends first (with the byte offset,
    /// line and number of complete top-level items), `malformed` for bytes that are not Apple's
    /// XML, `notAnExport`, `tooLarge`, `unreadable`. After an error the reader returns nil.
    public func next() throws(AppleHealthReadError) -> AppleHealthItem? {
        while true {
            if readyIndex < ready.count {
                let item = ready[readyIndex]
                readyIndex += 1
                if readyIndex == ready.count {
                    ready.removeAll(keepingCapacity: true)
                    readyIndex = 0
                }
                return item
            }
            switch phase {
            case .done:
                return nil
            case .rootClosed:
                flushUnsupported()
                readPastRoot()
                phase = .done
                continue
            case .prolog, .body:
                break
            }
            let event: XMLScanner.Event
            do throws(XMLScanner.Failure) {
                event = try scanner.next()
            } catch {
                phase = .done
                throw failure(error)
            }
            do throws(AppleHealthReadError) {
                switch event {
                case .start(let nameStart, let nameEnd, let empty):
                    try handleStart(nameStart: nameStart, nameEnd: nameEnd, empty: empty)
                case .end(let nameStart, let nameEnd):
                    try handleEnd(nameStart: nameStart, nameEnd: nameEnd)
                case .endOfInput:
                    throw endedEarly()
                }
            } catch {
                phase = .done
                throw error
            }
        }
    }

    /// After `</HealthData>`: counts any tag that follows (nothing should) and stops.
    private func readPastRoot() {
        while true {
            guard let event = try? scanner.next() else {
                counts.trailingBytes += 1
                return
            }
            if case .endOfInput = event { return }
            counts.trailingBytes += scanner.bytesConsumed - scanner.offset(of: scanner.tokenStart)
        }
    }

    /// The error for input that ends before `</HealthData>`.
    private func endedEarly() -> AppleHealthReadError {
        let end = scanner.bytesConsumed
        let line = scanner.lineAtEnd
        guard phase == .body else {
            return AppleHealthReadError(
                .truncated,
                "the file ends before the HealthData element begins",
                byteOffset: end,
                line: line,
                completeItems: 0
            )
        }
        if frames.count > 1 {
            return AppleHealthReadError(
                .truncated,
                "the file ends inside a top-level element that begins at byte \(itemOffset) (line \(itemLine)), "
                    + "before </HealthData>",
                byteOffset: end,
                line: line,
                completeItems: counts.completeItems
            )
        }
        return AppleHealthReadError(
            .truncated,
            "the file ends after a complete element but before </HealthData>",
            byteOffset: end,
            line: line,
            completeItems: counts.completeItems
        )
    }

    func failure(_ failure: XMLScanner.Failure) -> AppleHealthReadError {
        switch failure {
        case .truncated(let offset):
            return AppleHealthReadError(
                .truncated,
                "the file ends inside a tag" + (phase == .body ? ", before </HealthData>" : ""),
                byteOffset: offset,
                line: scanner.line(of: offset - scanner.offset(of: 0)),
                completeItems: counts.completeItems
            )
        case .malformed(let offset, let reason):
            return AppleHealthReadError(
                .malformed,
                reason,
                byteOffset: offset,
                line: scanner.line(of: offset - scanner.offset(of: 0)),
                completeItems: counts.completeItems
            )
        case .tokenTooLarge(let offset):
            return AppleHealthReadError(
                .tooLarge,
                "a tag is larger than \(options.maximumTagSize) bytes",
                byteOffset: offset,
                completeItems: counts.completeItems
            )
        case .unreadable(let error):
            var error = error
            error.completeItems = counts.completeItems
            return error
        }
    }

    /// Queues an item to return, after any run of unsupported elements before it.
    func emit(_ item: AppleHealthItem) {
        flushUnsupported()
        ready.append(item)
    }

    func flushUnsupported() {
        if let pending = pendingUnsupported {
            ready.append(.unsupported(pending))
            pendingUnsupported = nil
        }
    }
}
