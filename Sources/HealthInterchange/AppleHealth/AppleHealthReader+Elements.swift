import HealthModel

/// How the reader builds items from tags: which element may hold which, what each attribute
/// fills, and when an item is complete.
extension AppleHealthReader {
    /// Elements nested deeper than this are refused (Apple's go four deep).
    static let maximumDepth = 32

    func handleStart(nameStart: Int, nameEnd: Int, empty: Bool) throws(AppleHealthReadError) {
        let name = ElementName.identify(scanner.bytes, nameStart, nameEnd)
        guard let top = frames.last else {
            try startRoot(name, nameStart: nameStart, nameEnd: nameEnd, empty: empty)
            return
        }
        guard frames.count < Self.maximumDepth else {
            throw AppleHealthReadError(
                .tooLarge,
                "elements nested deeper than \(Self.maximumDepth) levels",
                byteOffset: scanner.offset(of: scanner.tokenStart),
                line: scanner.line(of: scanner.tokenStart),
                completeItems: counts.completeItems
            )
        }
        switch top {
        case .healthData:
            try startTopLevel(name, nameStart: nameStart, nameEnd: nameEnd, empty: empty)
        case .record, .member:
            if name == .metadataEntry {
                try countChild()
                let entry = readMetadataEntry()
                if case .record = top { record?.metadata.append(entry) } else { member?.metadata.append(entry) }
                if !empty { frames.append(.leaf(.metadataEntry)) }
            } else if name == .heartRateVariabilityMetadataList {
                if !empty { frames.append(.heartRateVariabilityList) }
            } else {
                unexpected(in: "Record", nameStart: nameStart, nameEnd: nameEnd, empty: empty)
            }
        case .heartRateVariabilityList:
            if name == .instantaneousBeatsPerMinute {
                try countChild()
                let reading = readBeatsPerMinute()
                if case .member = frames[frames.count - 2] {
                    member?.instantaneousBeatsPerMinute.append(reading)
                } else {
                    record?.instantaneousBeatsPerMinute.append(reading)
                }
                if !empty { frames.append(.leaf(.instantaneousBeatsPerMinute)) }
            } else {
                unexpected(in: "HeartRateVariabilityMetadataList", nameStart: nameStart, nameEnd: nameEnd, empty: empty)
            }
        case .correlation:
            if name == .record {
                try countChild()
                member = readRecord()
                if empty { finishMember() } else { frames.append(.member) }
            } else if name == .metadataEntry {
                try countChild()
                correlation?.metadata.append(readMetadataEntry())
                if !empty { frames.append(.leaf(.metadataEntry)) }
            } else {
                unexpected(in: "Correlation", nameStart: nameStart, nameEnd: nameEnd, empty: empty)
            }
        case .workout:
            try startInWorkout(name, nameStart: nameStart, nameEnd: nameEnd, empty: empty)
        case .workoutActivity:
            try startInActivity(name, nameStart: nameStart, nameEnd: nameEnd, empty: empty)
        case .workoutEvent:
            if name == .metadataEntry {
                try countChild()
                event?.metadata.append(readMetadataEntry())
                if !empty { frames.append(.leaf(.metadataEntry)) }
            } else {
                unexpected(in: "WorkoutEvent", nameStart: nameStart, nameEnd: nameEnd, empty: empty)
            }
        case .workoutRoute:
            if name == .fileReference {
                try countChild()
                let path = read(["path"], element: "FileReference")
                if let value = path.values[0] { route?.fileReferences.append(value) }
                route?.otherAttributes += path.others
                if !empty { frames.append(.leaf(.fileReference)) }
            } else if name == .metadataEntry {
                try countChild()
                route?.metadata.append(readMetadataEntry())
                if !empty { frames.append(.leaf(.metadataEntry)) }
            } else {
                unexpected(in: "WorkoutRoute", nameStart: nameStart, nameEnd: nameEnd, empty: empty)
            }
        case .leaf(let element), .topLevelLeaf(let element):
            unexpected(in: element.name, nameStart: nameStart, nameEnd: nameEnd, empty: empty)
        case .unsupported, .skipped:
            if !empty { frames.append(.skipped(name: nameBytes(nameStart, nameEnd))) }
        }
    }

    func handleEnd(nameStart: Int, nameEnd: Int) throws(AppleHealthReadError) {
        guard let top = frames.popLast() else {
            throw malformed("an end tag with no element open")
        }
        let matches: Bool
        switch top {
        case .healthData: matches = isName(nameStart, nameEnd, .healthData)
        case .record, .member: matches = isName(nameStart, nameEnd, .record)
        case .heartRateVariabilityList: matches = isName(nameStart, nameEnd, .heartRateVariabilityMetadataList)
        case .correlation: matches = isName(nameStart, nameEnd, .correlation)
        case .workout: matches = isName(nameStart, nameEnd, .workout)
        case .workoutActivity: matches = isName(nameStart, nameEnd, .workoutActivity)
        case .workoutEvent: matches = isName(nameStart, nameEnd, .workoutEvent)
        case .workoutRoute: matches = isName(nameStart, nameEnd, .workoutRoute)
        case .leaf(let element), .topLevelLeaf(let element): matches = isName(nameStart, nameEnd, element)
        case .unsupported(let name, _, _, _), .skipped(let name):
            matches = name.withUnsafeBufferPointer { bytes in
                bytes.count == nameEnd - nameStart
                    && (bytes.isEmpty || bytesEqual(bytes.baseAddress!, scanner.bytes + nameStart, bytes.count))
            }
        }
        guard matches else {
            throw malformed("an end tag that does not close the element open at that point")
        }
        switch top {
        case .healthData:
            phase = .rootClosed
        case .record:
            completeRecord()
        case .member:
            finishMember()
        case .correlation:
            completeCorrelation()
        case .workout:
            completeWorkout()
        case .workoutActivity:
            finishActivity()
        case .workoutEvent:
            finishEvent()
        case .workoutRoute:
            finishRoute()
        case .topLevelLeaf:
            counts.completeItems += 1
            if let item = pendingLeafItem {
                emit(item)
                pendingLeafItem = nil
            }
        case .unsupported(_, let element, let type, let offset):
            completeUnsupported(element: element, type: type, offset: offset)
        case .leaf, .heartRateVariabilityList, .skipped:
            break
        }
    }

    // MARK: - The root and the top level

    private func startRoot(_ name: ElementName?, nameStart: Int, nameEnd: Int, empty: Bool) throws(AppleHealthReadError)
    {
        guard name == .healthData else {
            let found = String(decoding: nameBytes(nameStart, nameEnd), as: UTF8.self)
            throw AppleHealthReadError(
                .notAnExport,
                "the root element is <\(found)>, not <HealthData>: not an Apple Health export.xml",
                byteOffset: scanner.offset(of: scanner.tokenStart),
                line: scanner.line(of: scanner.tokenStart),
                completeItems: 0
            )
        }
        let attributes = read(["locale"], element: "HealthData")
        counts.locale = attributes.values[0]
        phase = .body
        if empty {
            phase = .rootClosed
        } else {
            frames.append(.healthData)
        }
    }

    private func startTopLevel(
        _ name: ElementName?,
        nameStart: Int,
        nameEnd: Int,
        empty: Bool
    ) throws(AppleHealthReadError) {
        itemOffset = scanner.offset(of: scanner.tokenStart)
        itemLine = scanner.line(of: scanner.tokenStart)
        itemChildren = 0
        switch name {
        case .record:
            record = readRecord()
            if empty { completeRecord() } else { frames.append(.record) }
        case .correlation:
            correlation = readCorrelation()
            if empty { completeCorrelation() } else { frames.append(.correlation) }
        case .workout:
            workout = readWorkout()
            if empty { completeWorkout() } else { frames.append(.workout) }
        case .activitySummary:
            counts.activitySummaries += 1
            leaf(.activitySummary, item: checked(.activitySummary(readActivitySummary())), empty: empty)
        case .me:
            counts.meElements += 1
            var attributes: [AppleHealthAttribute] = []
            for attribute in scanner.attributes {
                attributes.append(AppleHealthAttribute(name: self.name(of: attribute), value: value(of: attribute)))
            }
            leaf(.me, item: .me(AppleHealthMe(attributes: attributes, byteOffset: itemOffset)), empty: empty)
        case .exportDate:
            let attributes = read(["value"], element: "ExportDate")
            counts.exportDate = attributes.values[0]
            leaf(.exportDate, item: nil, empty: empty)
        default:
            let element = String(decoding: nameBytes(nameStart, nameEnd), as: UTF8.self)
            let type = scanner.attributes.first { attribute($0, is: "type") }.map(value(of:))
            if empty {
                completeUnsupported(element: element, type: type, offset: itemOffset)
            } else {
                frames.append(
                    .unsupported(name: nameBytes(nameStart, nameEnd), element: element, type: type, offset: itemOffset)
                )
            }
        }
    }

    private func leaf(_ name: ElementName, item: AppleHealthItem?, empty: Bool) {
        if empty {
            counts.completeItems += 1
            if let item { emit(item) }
        } else {
            pendingLeafItem = item
            frames.append(.topLevelLeaf(name))
        }
    }

    // MARK: - Workouts

    private func startInWorkout(
        _ name: ElementName?,
        nameStart: Int,
        nameEnd: Int,
        empty: Bool
    ) throws(AppleHealthReadError) {
        switch name {
        case .metadataEntry:
            try countChild()
            workout?.metadata.append(readMetadataEntry())
            if !empty { frames.append(.leaf(.metadataEntry)) }
        case .workoutEvent:
            try countChild()
            event = readEvent()
            if empty { finishEvent() } else { frames.append(.workoutEvent) }
        case .workoutStatistics:
            try countChild()
            workout?.statistics.append(readStatistics())
            if !empty { frames.append(.leaf(.workoutStatistics)) }
        case .workoutActivity:
            try countChild()
            activity = readActivity()
            if empty { finishActivity() } else { frames.append(.workoutActivity) }
        case .workoutRoute:
            try countChild()
            route = readRoute()
            if empty { finishRoute() } else { frames.append(.workoutRoute) }
        default:
            unexpected(in: "Workout", nameStart: nameStart, nameEnd: nameEnd, empty: empty)
        }
    }

    private func startInActivity(
        _ name: ElementName?,
        nameStart: Int,
        nameEnd: Int,
        empty: Bool
    ) throws(AppleHealthReadError) {
        switch name {
        case .metadataEntry:
            try countChild()
            activity?.metadata.append(readMetadataEntry())
            if !empty { frames.append(.leaf(.metadataEntry)) }
        case .workoutEvent:
            try countChild()
            event = readEvent()
            if empty { finishEvent() } else { frames.append(.workoutEvent) }
        case .workoutStatistics:
            try countChild()
            activity?.statistics.append(readStatistics())
            if !empty { frames.append(.leaf(.workoutStatistics)) }
        default:
            unexpected(in: "WorkoutActivity", nameStart: nameStart, nameEnd: nameEnd, empty: empty)
        }
    }

    private func finishEvent() {
        guard let event else { return }
        self.event = nil
        if case .workoutActivity = frames.last {
            activity?.events.append(event)
        } else {
            workout?.events.append(event)
        }
    }

    private func finishActivity() {
        guard let activity else { return }
        self.activity = nil
        workout?.activities.append(activity)
    }

    private func finishRoute() {
        guard let route else { return }
        self.route = nil
        workout?.routes.append(route)
    }

    private func finishMember() {
        guard let member else { return }
        self.member = nil
        counts.correlationMembers += 1
        correlation?.records.append(member)
    }

    // MARK: - Complete items

    private func completeRecord() {
        guard var record else { return }
        self.record = nil
        counts.completeItems += 1
        counts.records[record.type, default: 0] += 1
        recordsRead += 1
        if let skipped = skip(element: "Record", type: record.type, missing: record.missingAttributes) {
            emit(.skipped(skipped))
            return
        }
        if options.validates {
            do {
                let prepared = try record.prepare()
                record.prepared = prepared
                note(prepared.notes, element: "Record", type: record.type)
                if !record.instantaneousBeatsPerMinute.isEmpty {
                    counts.unresolvedBeatTimes +=
                        record.instantaneousBeatsPerMinute.count - record.resolvedBeatsPerMinute().count
                }
            } catch {
                emit(.skipped(skipped(element: "Record", type: record.type, reason: error)))
                return
            }
        }
        emit(.record(record))
    }

    private func completeCorrelation() {
        guard var correlation else { return }
        self.correlation = nil
        counts.completeItems += 1
        counts.correlations[correlation.type, default: 0] += 1
        counts.largestItemChildren = max(counts.largestItemChildren, itemChildren)
        if let skipped = skip(element: "Correlation", type: correlation.type, missing: correlation.missingAttributes) {
            emit(.skipped(skipped))
            return
        }
        if options.validates {
            do {
                let prepared = try correlation.prepare()
                correlation.prepared = prepared
                note(prepared.notes, element: "Correlation", type: correlation.type)
            } catch {
                emit(.skipped(skipped(element: "Correlation", type: correlation.type, reason: error)))
                return
            }
        }
        emit(.correlation(correlation))
    }

    private func completeWorkout() {
        guard var workout else { return }
        self.workout = nil
        counts.completeItems += 1
        counts.workouts[workout.workoutActivityType, default: 0] += 1
        counts.largestItemChildren = max(counts.largestItemChildren, itemChildren)
        let type = workout.workoutActivityType
        if let skipped = skip(element: "Workout", type: type, missing: workout.missingAttributes) {
            emit(.skipped(skipped))
            return
        }
        if options.validates {
            do {
                let prepared = try workout.prepare()
                workout.prepared = prepared
                note(prepared.notes, element: "Workout", type: type)
            } catch {
                emit(.skipped(skipped(element: "Workout", type: type, reason: error)))
                return
            }
        }
        emit(.workout(workout))
    }

    /// An activity summary as an item, or skipped when validating and HealthModel refuses it.
    private func checked(_ item: AppleHealthItem) -> AppleHealthItem {
        guard options.validates, case .activitySummary(let summary) = item else { return item }
        do {
            _ = try summary.activitySummary()
            return item
        } catch {
            return .skipped(skipped(element: "ActivitySummary", type: nil, reason: error))
        }
    }

    private func completeUnsupported(element: String, type: String?, offset: Int) {
        counts.completeItems += 1
        counts.unsupported[AppleHealthDiagnostics.Key(element: element, type: type), default: 0] += 1
        if var pending = pendingUnsupported, pending.element == element, pending.type == type {
            pending.count += 1
            pendingUnsupported = pending
        } else {
            flushUnsupported()
            pendingUnsupported = AppleHealthUnsupported(element: element, type: type, count: 1, byteOffset: offset)
        }
    }

    private func skip(element: String, type: String, missing: [String]) -> AppleHealthSkipped? {
        guard let first = missing.first else { return nil }
        return skipped(
            element: element,
            type: type.isEmpty ? nil : type,
            reason: .invalidArgument("the \(element) has no \(first) attribute", field: first)
        )
    }

    private func skipped(element: String, type: String?, reason: HealthError) -> AppleHealthSkipped {
        let detail = reason.field.map { "\($0): \(reason.message)" } ?? reason.message
        counts.skipped[AppleHealthDiagnostics.Key(element: element, type: type, detail: detail), default: 0] += 1
        return AppleHealthSkipped(element: element, type: type, reason: reason, byteOffset: itemOffset, line: itemLine)
    }

    private func note(_ notes: [AppleHealthConversionNote], element: String, type: String) {
        for note in notes {
            counts.conversionNotes[
                AppleHealthDiagnostics.Key(element: element, type: type, detail: note.description),
                default: 0
            ] += 1
        }
    }

    // MARK: - Helpers

    private func countChild() throws(AppleHealthReadError) {
        itemChildren += 1
        if itemChildren > options.maximumChildren {
            throw AppleHealthReadError(
                .tooLarge,
                "a top-level element holds more than \(options.maximumChildren) children",
                byteOffset: itemOffset,
                line: itemLine,
                completeItems: counts.completeItems
            )
        }
        if itemChildren > counts.largestItemChildren {
            counts.largestItemChildren = itemChildren
        }
    }

    private func unexpected(in parent: String, nameStart: Int, nameEnd: Int, empty: Bool) {
        let child = nameBytes(nameStart, nameEnd)
        let key = AppleHealthDiagnostics.Key(element: parent, detail: String(decoding: child, as: UTF8.self))
        counts.unexpectedChildren[key, default: 0] += 1
        if !empty { frames.append(.skipped(name: child)) }
    }

    private func nameBytes(_ start: Int, _ end: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: scanner.bytes + start, count: end - start))
    }

    private func isName(_ start: Int, _ end: Int, _ element: ElementName) -> Bool {
        element.literal.utf8CodeUnitCount == end - start
            && bytesEqual(scanner.bytes + start, element.literal.utf8Start, end - start)
    }

    private func malformed(_ reason: String) -> AppleHealthReadError {
        AppleHealthReadError(
            .malformed,
            reason,
            byteOffset: scanner.offset(of: scanner.tokenStart),
            line: scanner.line(of: scanner.tokenStart),
            completeItems: counts.completeItems
        )
    }
}
