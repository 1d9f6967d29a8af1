/// The elements of Apple's export DTD the reader knows.
enum ElementName: CaseIterable {
    case healthData
    case exportDate
    case me
    case record
    case metadataEntry
    case heartRateVariabilityMetadataList
    case instantaneousBeatsPerMinute
    case correlation
    case workout
    case workoutEvent
    case workoutStatistics
    case workoutActivity
    case workoutRoute
    case fileReference
    case activitySummary

    var literal: StaticString {
        switch self {
        case .healthData: "HealthData"
        case .exportDate: "ExportDate"
        case .me: "Me"
        case .record: "Record"
        case .metadataEntry: "MetadataEntry"
        case .heartRateVariabilityMetadataList: "HeartRateVariabilityMetadataList"
        case .instantaneousBeatsPerMinute: "InstantaneousBeatsPerMinute"
        case .correlation: "Correlation"
        case .workout: "Workout"
        case .workoutEvent: "WorkoutEvent"
        case .workoutStatistics: "WorkoutStatistics"
        case .workoutActivity: "WorkoutActivity"
        case .workoutRoute: "WorkoutRoute"
        case .fileReference: "FileReference"
        case .activitySummary: "ActivitySummary"
        }
    }

    var name: String { "\(literal)" }

    /// The element whose name is `bytes[start..<end]`, or nil for a name the reader does not know.
    static func identify(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> ElementName? {
        let length = end - start
        for element in allCases where element.literal.utf8CodeUnitCount == length {
            if bytesEqual(bytes + start, element.literal.utf8Start, length) {
                return element
            }
        }
        return nil
    }
}

/// Whether `count` bytes at two places are equal, eight at a time.
func bytesEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    var i = 0
    let left = UnsafeRawPointer(lhs)
    let right = UnsafeRawPointer(rhs)
    while i + 8 <= count {
        if left.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            != right.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        {
            return false
        }
        i += 8
    }
    while i < count {
        if lhs[i] != rhs[i] { return false }
        i += 1
    }
    return true
}
