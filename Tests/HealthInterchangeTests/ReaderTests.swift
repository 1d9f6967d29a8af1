import Foundation
import HealthInterchange
import HealthModel
import Testing

/// The elements of Apple's export and what the reader makes of each.
@Suite struct ReaderTests {
    static let run = """
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="38.5" durationUnit="min" \
        sourceName="Jane’s Apple Watch" sourceVersion="9.1" \
        device="&lt;&lt;HKDevice: 0x283e8c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:9.1&gt;" \
        creationDate="2022-11-14 18:41:00 -0800" startDate="2022-11-14 18:00:00 -0800" endDate="2022-11-14 18:40:30 -0800">
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
          <MetadataEntry key="HKElevationAscended" value="418 cm"/>
          <MetadataEntry key="HKWeatherTemperature" value="68 degF"/>
          <MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/>
          <MetadataEntry key="HKAverageMETs" value="9.5 kcal/hr·kg"/>
          <MetadataEntry key="HKWeatherCondition" value="sunny"/>
          <WorkoutEvent type="HKWorkoutEventTypePause" date="2022-11-14 18:15:00 -0800"/>
          <WorkoutEvent type="HKWorkoutEventTypeResume" date="2022-11-14 18:17:00 -0800"/>
          <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2022-11-14 18:30:00 -0800" duration="10.5" durationUnit="min">
           <MetadataEntry key="HKMetadataKeySyncVersion" value="1"/>
          </WorkoutEvent>
          <WorkoutEvent type="HKWorkoutEventTypeSomethingNew" date="2022-11-14 18:20:00 -0800"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2022-11-14 18:00:00 -0800" endDate="2022-11-14 18:40:30 -0800" sum="3.1" unit="mi"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2022-11-14 18:00:00 -0800" endDate="2022-11-14 18:40:30 -0800" sum="320" unit="Cal"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2022-11-14 18:00:00 -0800" endDate="2022-11-14 18:40:30 -0800" average="151" minimum="118" maximum="176" unit="count/min"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierRunningPowerOfTheFuture" startDate="2022-11-14 18:00:00 -0800" endDate="2022-11-14 18:40:30 -0800" average="250" unit="W"/>
          <WorkoutActivity uuid="6F1C2A9E-3B7D-4E55-9A0C-1D2E3F405162" startDate="2022-11-14 18:00:00 -0800" endDate="2022-11-14 18:40:30 -0800" duration="38.5" durationUnit="min">
           <WorkoutEvent type="HKWorkoutEventTypeLap" date="2022-11-14 18:10:00 -0800" duration="10" durationUnit="min"/>
           <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2022-11-14 18:00:00 -0800" endDate="2022-11-14 18:40:30 -0800" average="151" unit="count/min"/>
           <MetadataEntry key="HKIndoorWorkout" value="0"/>
          </WorkoutActivity>
          <WorkoutRoute sourceName="Jane’s Apple Watch" sourceVersion="9.1" creationDate="2022-11-14 18:41:00 -0800" startDate="2022-11-14 18:00:00 -0800" endDate="2022-11-14 18:40:30 -0800">
           <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>
           <FileReference path="/workout-routes/route_2022-11-14_6.00pm.gpx"/>
          </WorkoutRoute>
         </Workout>

        """

    @Test func aWorkoutIsReadWithItsEventsStatisticsActivitiesAndRoutes() throws {
        let result = read(export(Self.run))
        #expect(result.error == nil)
        let workout = try #require(result.workouts.first)
        #expect(workout.workoutActivityType == "HKWorkoutActivityTypeRunning")
        #expect(workout.duration == "38.5")
        #expect(workout.metadata.count == 6)
        #expect(workout.events.count == 4)
        #expect(workout.events[2].metadata.count == 1)
        #expect(workout.statistics.count == 4)
        #expect(workout.activities.count == 1)
        #expect(workout.activities[0].events.count == 1)
        #expect(workout.activities[0].statistics.count == 1)
        #expect(workout.routes.map(\.fileReferences) == [["/workout-routes/route_2022-11-14_6.00pm.gpx"]])
        #expect(workout.routes.first?.metadata.count == 1)
        #expect(result.diagnostics.workouts == ["HKWorkoutActivityTypeRunning": 1])
    }

    @Test func aWorkoutConvertsToHealthModelLeavingOutOnlyWhatItCannotHold() throws {
        let workout = try #require(read(export(Self.run)).workouts.first)
        let uuid = UUID()
        guard case .workout(let converted) = try workout.sample(uuid: uuid, source: importSource) else {
            Issue.record("not a workout")
            return
        }
        #expect(converted.uuid == uuid)
        #expect(converted.sourceRevision.source == importSource)
        #expect(converted.sourceRevision.productType == "Watch6,1")
        #expect(converted.workoutActivityType == .running)
        #expect(converted.duration == 38.5 * 60)
        // Totals from the statistics, as newer exports write them.
        #expect(abs(try #require(converted.totalDistance).doubleValue(for: HealthUnit(from: "mi")) - 3.1) < 1e-9)
        #expect(abs(try #require(converted.totalEnergyBurned).doubleValue(for: .kilocalorie) - 320) < 1e-9)
        #expect(converted.workoutEvents.map(\.type) == [.pause, .resume, .segment])
        #expect(converted.workoutEvents[2].duration == 630)
        #expect(
            converted.allStatistics.map(\.quantityType) == [.activeEnergyBurned, .distanceWalkingRunning, .heartRate]
        )
        let heartRate = try #require(converted.statistics(for: .heartRate))
        // In the type's canonical unit, as every statistics value.
        #expect(abs(try #require(heartRate.averageQuantity()).doubleValue(for: .countPerMinute) - 151) < 1e-9)
        #expect(abs(try #require(heartRate.maximumQuantity()).doubleValue(for: .countPerMinute) - 176) < 1e-9)
        let distance = try #require(converted.statistics(for: .distanceWalkingRunning)?.sumQuantity())
        #expect(abs(distance.value - 3.1 * 1609.344) < 1e-9)
        #expect(converted.workoutActivities.count == 1)
        let activity = converted.workoutActivities[0]
        #expect(activity.uuid == UUID(uuidString: "6F1C2A9E-3B7D-4E55-9A0C-1D2E3F405162"))
        #expect(activity.workoutConfiguration.activityType == .running)
        #expect(activity.workoutConfiguration.locationType == .outdoor)
        #expect(activity.workoutEvents.map(\.type) == [.lap])
        #expect(converted.metadata[.elevationAscended] == .quantity(Quantity(418, .centimeter)))
        #expect(converted.metadata[.weatherTemperature] == .quantity(Quantity(68, try HealthUnit(from: "degF"))))
        #expect(converted.metadata[.timeZone] == .string("America/Los_Angeles"))
        #expect(converted.metadata[.averageMETs] == .quantity(Quantity(9.5, try HealthUnit(from: "kcal/(hr*kg)"))))
        #expect(converted.metadata[.indoorWorkout] == .number(0))
        #expect(converted.metadata[.weatherCondition] == nil)
        #expect(
            Set(workout.conversionNotes().map(\.field)) == [
                "metadata.HKWeatherCondition", "events[3]", "statistics[3]",
            ]
        )
    }

    @Test func aDurationASecondLongerThanTheSpanIsShortenedAndNoted() throws {
        let workout = AppleHealthWorkout(
            workoutActivityType: "HKWorkoutActivityTypeWalking",
            duration: "10.01",
            durationUnit: "min",
            sourceName: "Watch",
            startDate: "2022-11-14 18:00:00 -0800",
            endDate: "2022-11-14 18:10:00 -0800"
        )
        let sample = try workout.sample(uuid: UUID(), source: importSource)
        guard case .workout(let converted) = sample else { return }
        #expect(converted.duration == 600)
        #expect(workout.conversionNotes().map(\.field) == ["duration"])
    }

    @Test func aRecordWithMetadataBecomesASampleWithHealthKitKeysAndKinds() throws {
        let body = """
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" \
            startDate="2022-11-14 07:59:12 -0800" endDate="2022-11-14 07:59:12 -0800" value="72">
              <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
              <MetadataEntry key="HKWasUserEntered" value="0"/>
              <MetadataEntry key="HKMetadataKeySessionEstimate" value="0 count/min"/>
              <MetadataEntry key="HKDateOfEarliestDataUsedForEstimate" value="2022-11-01 00:00:00 -0700"/>
              <MetadataEntry key="HKExternalUUID" value="12345"/>
              <MetadataEntry key="com.example.reading" value="24.5 degC"/>
              <MetadataEntry key="com.example.count" value="17"/>
              <MetadataEntry key="com.example.serial" value="123456789012345678901"/>
              <MetadataEntry key="com.example.when" value="2022-11-14 07:00:00 -0800"/>
              <MetadataEntry key="com.example.note" value="after coffee"/>
              <MetadataEntry key="HKHeartRateSensorLocation" value="99"/>
            </Record>

            """
        let record = try #require(read(export(body)).records.first)
        let sample = try record.sample(uuid: UUID(), source: importSource)
        let metadata = sample.metadata
        #expect(metadata[.heartRateMotionContext] == .number(1))
        #expect(metadata[.wasUserEntered] == .number(0))
        #expect(metadata[.sessionEstimate] == .quantity(Quantity(0, .countPerMinute)))
        #expect(
            metadata[.dateOfEarliestDataUsedForEstimate]
                == .date(try #require(AppleHealthDate(parsing: "2022-11-01 07:00:00 +0000")).date)
        )
        #expect(metadata[.externalUUID] == .string("12345"))
        #expect(metadata["com.example.reading"] == .quantity(Quantity(24.5, try HealthUnit(from: "degC"))))
        #expect(metadata["com.example.count"] == .number(17))
        #expect(metadata["com.example.serial"] == .string("123456789012345678901"))
        #expect(metadata["com.example.note"] == .string("after coffee"))
        if case .date = metadata["com.example.when"] {} else { Issue.record("not a date") }
        // 99 is no HKHeartRateSensorLocation: HealthModel refuses it, so it is left out and noted.
        #expect(metadata[.heartRateSensorLocation] == nil)
        #expect(record.conversionNotes().map(\.field) == ["metadata.HKHeartRateSensorLocation"])
    }

    @Test func categoryRecordsReadTheirValueConstants() throws {
        let body = """
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2022-11-14 01:00:00 -0800" endDate="2022-11-14 02:00:00 -0800" value="HKCategoryValueSleepAnalysisAsleepCore"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2022-11-13 01:00:00 -0800" endDate="2022-11-13 02:00:00 -0800" value="HKCategoryValueSleepAnalysisAsleep"/>
             <Record type="HKCategoryTypeIdentifierAppleStandHour" sourceName="Watch" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 09:00:00 -0800" value="HKCategoryValueAppleStandHourIdle"/>
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Breathe" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:01:00 -0800" value="HKCategoryValueNotApplicable"/>

            """
        let records = read(export(body)).records
        let values = try records.map { record in
            guard case .category(let sample) = try record.sample(uuid: UUID(), source: importSource) else { return -1 }
            return sample.value
        }
        #expect(
            values == [
                CategoryValueSleepAnalysis.asleepCore.rawValue, CategoryValueSleepAnalysis.asleepUnspecified.rawValue,
                CategoryValueAppleStandHour.idle.rawValue, CategoryValue.notApplicable.rawValue,
            ]
        )
    }

    @Test func recordsHealthModelRefusesAreSkippedWithAReasonAndReadingGoesOn() throws {
        let body = """
             <Record type="HKDataTypeSleepDurationGoal" sourceName="Health" unit="hr" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:00:00 -0800" value="8"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="kg" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:10:00 -0800" value="412"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:10:00 -0800" value="-412"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2022-11-14 08:10:00 -0800" endDate="2022-11-14 08:00:00 -0800" value="412"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2022-11-14 08:00:00 -0800" value="412"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2022-11-14 01:00:00 -0800" endDate="2022-11-14 02:00:00 -0800" value="HKCategoryValueSleepAnalysisDreaming"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:10:00 -0800" value="412"/>

            """
        let result = read(export(body))
        #expect(result.error == nil)
        #expect(result.records.count == 1)
        let reasons = result.skipped.map { "\($0.type ?? "-") \($0.reason.field ?? "-")" }
        #expect(
            reasons == [
                "HKDataTypeSleepDurationGoal type", "HKQuantityTypeIdentifierStepCount quantity.unit",
                "HKQuantityTypeIdentifierStepCount quantity.value", "HKQuantityTypeIdentifierStepCount endDate",
                "HKQuantityTypeIdentifierStepCount endDate", "HKCategoryTypeIdentifierSleepAnalysis value",
            ]
        )
        for skipped in result.skipped {
            #expect(skipped.element == "Record")
            #expect(!skipped.reason.message.contains("412"))
            #expect(skipped.line >= 11)
        }
        #expect(result.skipped[1].line == 12)
        #expect(result.diagnostics.records["HKQuantityTypeIdentifierStepCount"] == 5)
        #expect(result.diagnostics.skipped.values.reduce(0, +) == 6)
    }

    @Test func withoutValidationItemsComeAsReadAndConvertWhenAsked() throws {
        let body = """
             <Record type="HKDataTypeSleepDurationGoal" sourceName="Health" unit="hr" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:00:00 -0800" value="8"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:10:00 -0800" value="412"/>

            """
        let result = read(export(body), options: .init(validates: false))
        #expect(result.records.count == 2)
        #expect(result.skipped.isEmpty)
        #expect(throws: HealthError.self) { try result.records[0].sample(uuid: UUID(), source: importSource) }
        let steps = try result.records[1].sample(uuid: UUID(), source: importSource)
        #expect(steps.sampleType == .quantity(.stepCount))
    }

    @Test func unsupportedElementsAreCountedInRunsByNameAndType() throws {
        let body = """
             <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="a" sourceName="Clinic" sourceURL="x" fhirVersion="4.0.1" receivedDate="2022-11-14 08:00:00 -0800" resourceFilePath="/clinical-records/a.json"/>
             <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="b" sourceName="Clinic" sourceURL="x" fhirVersion="4.0.1" receivedDate="2022-11-14 08:00:00 -0800" resourceFilePath="/clinical-records/b.json"/>
             <ClinicalRecord type="HKClinicalTypeIdentifierMedicationRecord" identifier="c" sourceName="Clinic" sourceURL="x" fhirVersion="4.0.1" receivedDate="2022-11-14 08:00:00 -0800" resourceFilePath="/clinical-records/c.json"/>
             <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Health" startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:00:00 -0800">
              <SensitivityPoint frequencyValue="1000" frequencyUnit="Hz" leftEarValue="20" leftEarUnit="dBHL"/>
              <MetadataEntry key="HKWasUserEntered" value="1"/>
             </Audiogram>
             <ElectrocardiogramSample type="HKDataTypeIdentifierElectrocardiogram"><Voltage v="1"/></ElectrocardiogramSample>
            \(QuirkTests.heartRate())
             <Whatever/>

            """
        let result = read(export(body))
        #expect(result.error == nil)
        let runs = result.unsupported.map { "\($0.element) \($0.type ?? "-") \($0.count)" }
        #expect(
            runs == [
                "ClinicalRecord HKClinicalTypeIdentifierLabResultRecord 2",
                "ClinicalRecord HKClinicalTypeIdentifierMedicationRecord 1",
                "Audiogram HKDataTypeIdentifierAudiogram 1",
                "ElectrocardiogramSample HKDataTypeIdentifierElectrocardiogram 1",
                "Whatever - 1",
            ]
        )
        // The record between the runs comes in its place.
        guard case .record = result.items[result.items.count - 2] else {
            Issue.record("the record is not in file order")
            return
        }
        #expect(
            result.diagnostics.unsupported[
                .init(element: "ClinicalRecord", type: "HKClinicalTypeIdentifierLabResultRecord")
            ] == 2
        )
        #expect(result.diagnostics.completeItems == 8)
    }

    @Test func unknownChildrenAndAttributesAreCountedAndUnknownAttributesKept() throws {
        let body = """
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2022-11-14 07:59:12 -0800" endDate="2022-11-14 07:59:12 -0800" value="72" confidence="high">
              <MetadataEntry key="HKWasUserEntered" value="0"/>
              <Annotation text="x"><Inner/></Annotation>
             </Record>

            """
        let result = read(export(body))
        let record = try #require(result.records.first)
        #expect(record.otherAttributes == [AppleHealthAttribute(name: "confidence", value: "high")])
        #expect(record.metadata.count == 1)
        #expect(result.diagnostics.unknownAttributes == [.init(element: "Record", detail: "confidence"): 1])
        #expect(result.diagnostics.unexpectedChildren == [.init(element: "Record", detail: "Annotation"): 1])
    }

    @Test func anActivitySummaryConvertsToHealthModelsSummary() throws {
        let body = """
             <ActivitySummary dateComponents="2022-11-14" activeEnergyBurned="2092" activeEnergyBurnedGoal="2092" activeEnergyBurnedUnit="kJ" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="45" appleExerciseTimeGoal="30" appleStandHours="9" appleStandHoursGoal="12"/>
             <ActivitySummary dateComponents="2022-11-15" activeEnergyBurned="12" activeEnergyBurnedUnit="mi"/>

            """
        let result = read(export(body))
        let summary = try #require(result.summaries.first).activitySummary()
        #expect(summary.day == "2022-11-14")
        #expect(abs(summary.activeEnergyBurned.value - 500) < 0.01)
        #expect(abs(summary.activeEnergyBurnedGoal.value - 500) < 0.01)
        #expect(summary.appleExerciseTime == Quantity(45, .minute))
        #expect(summary.appleStandHours == Quantity(9, .count))
        #expect(summary.appleStandHoursGoal == Quantity(12, .count))
        #expect(result.skipped.map(\.element) == ["ActivitySummary"])
        #expect(result.diagnostics.activitySummaries == 2)
    }

    @Test func identitiesNormalizeOffsetsAndNumbersButNotValues() {
        let base = AppleHealthRecord(
            type: "HKQuantityTypeIdentifierBodyMass",
            sourceName: "Scale",
            unit: "kg",
            startDate: "2022-11-14 08:00:00 -0800",
            endDate: "2022-11-14 08:00:00 -0800",
            value: "72"
        )
        var movedZone = base
        movedZone.startDate = "2022-11-14 17:00:00 +0100"
        movedZone.endDate = "2022-11-14 16:00:00 +0000"
        movedZone.value = "72.0"
        movedZone.creationDate = "2022-11-14 17:00:05 +0100"
        movedZone.metadata = [AppleHealthMetadataEntry(key: "HKWasUserEntered", value: "1")]
        #expect(movedZone.identity == base.identity)
        #expect(movedZone.identity.bytes == base.identity.bytes)
        var other = base
        other.value = "72.5"
        #expect(other.identity != base.identity)
        other = base
        other.sourceVersion = "9.1"
        #expect(other.identity != base.identity)
        #expect(String(decoding: base.identity.bytes.prefix(4), as: UTF8.self) == "AHI1")
    }

    @Test func aDocumentWhoseRootIsNotHealthDataIsNotAnExport() throws {
        let result = read("<?xml version=\"1.0\"?>\n<ClinicalDocument><component/></ClinicalDocument>\n")
        #expect(result.error?.code == .notAnExport)
        #expect(result.error?.line == 2)
    }

    @Test func anEndTagThatClosesAnotherElementIsMalformed() throws {
        let result = read(export(" <Record type=\"x\" sourceName=\"y\" startDate=\"a\" endDate=\"b\">\n </Workout>\n"))
        let error = try #require(result.error)
        #expect(error.code == .malformed)
        #expect(error.line == 12)
        #expect(error.completeItems == 1)
    }

    @Test func aTagLargerThanTheLimitIsRefusedNotRead() throws {
        let long = String(repeating: "a", count: 5000)
        let result = read(
            export(QuirkTests.heartRate(source: long)),
            options: .init(chunkSize: 256, maximumTagSize: 1024)
        )
        #expect(result.error?.code == .tooLarge)
        #expect(result.diagnostics.peakBufferBytes <= 1024 + 256)
    }

    @Test func progressCountsBytesAndRecords() throws {
        let text = export(QuirkTests.heartRate() + QuirkTests.heartRate(start: "2022-11-14 08:00:00 -0800"))
        let reader = AppleHealthReader(bytes: Array(text.utf8))
        #expect(reader.progress.bytesRead == 0)
        #expect(reader.progress.totalBytes == text.utf8.count)
        _ = try reader.next()
        #expect(reader.progress.records == 1)
        while try reader.next() != nil {}
        #expect(reader.progress.records == 2)
        #expect(reader.progress.items == 3)
        #expect(reader.progress.bytesRead == text.utf8.count)
    }

}
