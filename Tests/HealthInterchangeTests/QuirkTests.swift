import Foundation
import HealthInterchange
import HealthModel
import Testing

/// One test per defect or oddity of real exports, each on a small document of its own.
@Suite struct QuirkTests {
    static let watchDevice =
        "&lt;&lt;HKDevice: 0x283e8c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, "
        + "hardware:Watch6,1, software:9.1, creation date:2022-11-14 07:59:12 +0000&gt;"

    static func heartRate(
        value: String = "72",
        source: String = "Jane’s Apple Watch",
        start: String = "2022-11-14 07:59:12 -0800",
        end: String? = nil
    ) -> String {
        " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"\(source)\" sourceVersion=\"9.1\" "
            + "device=\"\(watchDevice)\" unit=\"count/min\" creationDate=\"2022-11-14 08:03:12 -0800\" "
            + "startDate=\"\(start)\" endDate=\"\(end ?? start)\" value=\"\(value)\"/>\n"
    }

    // MARK: - The iOS 16 and 17 DOCTYPE

    @Test func anExportWhoseInternalDTDSubsetIsMalformedIsReadWhole() throws {
        let result = read(bytes: try fixture("ios16-malformed-doctype.xml"))
        #expect(result.error == nil)
        #expect(
            result.records.map(\.type) == ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate"]
        )
        #expect(
            result.records[1].metadata == [
                AppleHealthMetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "0")
            ]
        )
        #expect(result.me != nil)
        #expect(result.diagnostics.exportVersion == 12)
        // Two declarations never closed, one stray ">".
        #expect(result.diagnostics.doctypeIrregularities == 3)
        #expect(result.unsupported.map(\.element) == ["VisionPrescription"])
        #expect(result.diagnostics.locale == "en_US")
        #expect(result.diagnostics.exportDate == "2022-11-20 09:00:00 -0800")
    }

    @Test func anInternalSubsetNeverClosedEndsWhereTheRootElementBegins() {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record)*)>
            <!ATTLIST HealthData locale CDATA #REQUIRED
            <!ATTLIST HealthData locale CDATA #REQUIRED>
            <HealthData locale="de_DE">
            \(Self.heartRate())</HealthData>
            """
        let result = read(text)
        #expect(result.error == nil)
        #expect(result.records.count == 1)
        #expect(result.diagnostics.locale == "de_DE")
        // One declaration never closed, the subset never closed.
        #expect(result.diagnostics.doctypeIrregularities == 2)
    }

    // MARK: - Characters XML forbids

    @Test func forbiddenControlCharactersAreRemovedFromValuesAndCounted() throws {
        let body =
            Self.heartRate(source: "Jane’s Apple Watch\u{0B}")
            + Self.heartRate(source: "Jane’s\u{01} Apple Watch&#11;", start: "2022-11-14 08:00:00 -0800")
            + Self.heartRate(source: "Jane’s Apple Watch", start: "2022-11-14 08:01:00 -0800")
        let result = read(export(body))
        #expect(result.error == nil)
        #expect(result.records.map(\.sourceName) == Array(repeating: "Jane’s Apple Watch", count: 3))
        #expect(result.diagnostics.forbiddenCharactersRemoved == 3)
        let sample = try result.records[0].sample(uuid: UUID(), source: importSource)
        #expect(sample.sourceRevision.version == "9.1")
    }

    @Test func aLiteralTabOrLineBreakInAValueBecomesASpaceAndAReferencedOneIsKept() {
        let body = """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone\tOne&#10;Two&#9;" unit="count" \
            startDate="2022-11-14 08:00:00 -0800" endDate="2022-11-14 08:10:00 -0800" value="1"/>

            """
        let result = read(export(body))
        #expect(result.records.first?.sourceName == "Phone One\nTwo\t")
        #expect(result.diagnostics.forbiddenCharactersRemoved == 0)
    }

    // MARK: - Truncated files

    @Test func aFileCutInsideAnElementReportsTruncationAndWhereTheElementBegins() throws {
        let before = export(Self.heartRate(), close: false)
        let text =
            before
            + " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Watch\" unit=\"count/min\" "
            + "startDate=\"2022-11-14 08:00:00 -0800\" endDate=\"2022-11-14 08:00:00 -0800\" value=\"72\">\n"
            + "  <MetadataEntry key=\"HKWasUserEntered\" value=\"0\"/>\n"
        let result = read(text)
        let error = try #require(result.error)
        #expect(error.code == .truncated)
        #expect(error.completeItems == 2)
        #expect(result.records.count == 1)
        #expect(error.byteOffset == text.utf8.count)
        #expect(error.line == 14)
        #expect(error.message.contains("begins at byte \(before.utf8.count + 1) (line 12)"))
    }

    @Test func aFileCutInsideAnAttributeValueIsTruncated() throws {
        let text = export(Self.heartRate(), close: false) + " <Record type=\"HKQuantityTypeIdentifierHeart"
        let result = read(text)
        let error = try #require(result.error)
        #expect(error.code == .truncated)
        #expect(error.completeItems == 2)
        #expect(error.message.contains("inside a tag"))
    }

    @Test func aFileCutAfterACompleteRecordButBeforeTheEndIsTruncated() throws {
        let text = export(Self.heartRate() + Self.heartRate(start: "2022-11-14 08:00:00 -0800"), close: false)
        let result = read(text)
        let error = try #require(result.error)
        #expect(error.code == .truncated)
        #expect(error.completeItems == 3)
        #expect(error.byteOffset == text.utf8.count)
        #expect(result.records.count == 2)
        #expect(error.message.contains("before </HealthData>"))
    }

    @Test func aFileCutInsideAWorkoutsChildrenIsTruncatedNamingTheWorkout() throws {
        let text = export(
            " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" sourceName=\"Watch\" "
                + "startDate=\"2022-11-14 18:00:00 -0800\" endDate=\"2022-11-14 18:40:00 -0800\">\n"
                + "  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"2022-11-14 18:10:00 -0800\"/>\n",
            close: false
        )
        let result = read(text)
        let error = try #require(result.error)
        #expect(error.code == .truncated)
        #expect(error.completeItems == 1)
        #expect(error.message.contains("line 11"))
        #expect(result.workouts.isEmpty)
    }

    @Test func aCutAtAnyByteIsTruncationNeverAShorterExport() throws {
        let text = export(
            Self.heartRate()
                + " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Health\" "
                + "startDate=\"2022-11-14 08:15:00 -0800\" endDate=\"2022-11-14 08:15:00 -0800\">\n"
                + "  <!-- a comment -->\n"
                + "  <Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" sourceName=\"Health\" unit=\"mmHg\" "
                + "startDate=\"2022-11-14 08:15:00 -0800\" endDate=\"2022-11-14 08:15:00 -0800\" value=\"120\"/>\n"
                + " </Correlation>\n"
        )
        let bytes = Array(text.utf8)
        let end = bytes.count - "</HealthData>\n".utf8.count + "</HealthData>".utf8.count
        for cut in 0..<end {
            let result = read(bytes: Array(bytes[..<cut]))
            let error = try #require(result.error, "a cut at byte \(cut) read as a whole export")
            #expect(error.code == .truncated, "cut at \(cut): \(error)")
        }
        #expect(read(bytes: Array(bytes[..<end])).error == nil)
    }

    // MARK: - Attributes as Apple writes them

    @Test func attributesInAnyOrderWithEitherQuoteAndEntityReferencesReadTheSame() throws {
        let body = """
             <Record value='72' endDate="2022-11-14 07:59:12 -0800" unit='count/min' startDate='2022-11-14 07:59:12 -0800' \
            sourceName="Jane&#x2019;s &amp; Joe&#8217;s &quot;Watch&quot; &lt;1&gt; &apos;A&apos;" type="HKQuantityTypeIdentifierHeartRate"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName='Jane’s &amp; Joe’s "Watch" &lt;1&gt; &apos;A&apos;' \
            unit="count/min" startDate="2022-11-14 07:59:12 -0800" endDate="2022-11-14 07:59:12 -0800" value="72"/>

            """
        let result = read(export(body))
        #expect(result.error == nil)
        #expect(result.records.count == 2)
        #expect(result.records[0].sourceName == "Jane’s & Joe’s \"Watch\" <1> 'A'")
        #expect(result.records[0].identity == result.records[1].identity)
        #expect(result.records[0].value == "72")
        #expect(result.diagnostics.unknownReferences == 0)
    }

    @Test func anUnknownEntityOrAStrayAmpersandIsKeptAsWrittenAndCounted() {
        let body = Self.heartRate(source: "Jane&nbsp;s AT&T Watch")
        let result = read(export(body))
        #expect(result.records.first?.sourceName == "Jane&nbsp;s AT&T Watch")
        #expect(result.diagnostics.unknownReferences == 2)
    }

    // MARK: - Device strings

    @Test(arguments: [
        (
            "<<HKDevice: 0x283e8c0f0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, "
                + "software:9.1, creation date:2022-11-14 07:59:12 +0000>",
            Device(
                name: "Apple Watch",
                manufacturer: "Apple Inc.",
                model: "Watch",
                hardwareVersion: "Watch6,1",
                softwareVersion: "9.1"
            )
        ),
        (
            "<<HKDevice: 0x2811a2b70>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:16.1>",
            Device(
                name: "iPhone",
                manufacturer: "Apple Inc.",
                model: "iPhone",
                hardwareVersion: "iPhone14,5",
                softwareVersion: "16.1"
            )
        ),
        (
            "<<HKDevice: 0x600003b7c5a0>, name:Body Scale, manufacturer:Withings, model:WBS06, firmware:1.2,3, "
                + "localIdentifier:00:24:e4:aa:bb:cc>",
            Device(
                name: "Body Scale",
                manufacturer: "Withings",
                model: "WBS06",
                firmwareVersion: "1.2,3",
                localIdentifier: "00:24:e4:aa:bb:cc"
            )
        ),
        (
            "<<HKDevice: 0x1>, name:Strap, Left, UDIDeviceIdentifier:(01)00614141999996>",
            Device(name: "Strap, Left", udiDeviceIdentifier: "(01)00614141999996")
        ),
        ("<<HKDevice: 0x2>, software:17.0>", Device(softwareVersion: "17.0")),
    ])
    func deviceStringsBecomeDeviceFieldsEvenWithCommasInValues(text: String, expected: Device) throws {
        let record = AppleHealthRecord(
            type: "HKQuantityTypeIdentifierHeartRate",
            sourceName: "Watch",
            device: text,
            unit: "count/min",
            startDate: "2022-11-14 07:59:12 -0800",
            endDate: "2022-11-14 07:59:12 -0800",
            value: "72"
        )
        let sample = try record.sample(uuid: UUID(), source: importSource)
        #expect(sample.device == expected)
    }

    @Test func aDeviceStringWithoutKnownFieldsGivesNoDeviceAndTheAddressIsNoPartOfTheIdentity() throws {
        var record = AppleHealthRecord(
            type: "HKQuantityTypeIdentifierHeartRate",
            sourceName: "Watch",
            device: "a strap",
            unit: "count/min",
            startDate: "2022-11-14 07:59:12 -0800",
            endDate: "2022-11-14 07:59:12 -0800",
            value: "72"
        )
        #expect(try record.sample(uuid: UUID(), source: importSource).device == nil)
        record.device = "<<HKDevice: 0x283e8c0f0>, name:Apple Watch>"
        let first = record.identity
        record.device = "<<HKDevice: 0x600001234abc>, name:Apple Watch>"
        #expect(record.identity == first)
        record.device = "<<HKDevice: 0x600001234abc>, name:Apple Watch 2>"
        #expect(record.identity != first)
    }

    // MARK: - Heart rate variability readings

    @Test func readingTimesResolveAgainstTheRecordsDateAndOffsetAcrossMidnight() throws {
        let body = """
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch" unit="ms" \
            startDate="2022-11-14 23:59:30 -0800" endDate="2022-11-15 00:00:40 -0800" value="45.2">
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="61" time="11:59:31.25 PM"/>
               <InstantaneousBeatsPerMinute bpm="62" time="11:59:59.99 pm"/>
               <InstantaneousBeatsPerMinute bpm="63" time="12:00:00.50 AM"/>
               <InstantaneousBeatsPerMinute bpm="64" time="00:00:30.12"/>
               <InstantaneousBeatsPerMinute bpm="65" time="soon"/>
              </HeartRateVariabilityMetadataList>
             </Record>

            """
        let result = read(export(body))
        let record = try #require(result.records.first)
        #expect(record.instantaneousBeatsPerMinute.count == 5)
        let resolved = record.resolvedBeatsPerMinute()
        let utc = { (text: String) in try #require(AppleHealthDate(parsing: text)).date }
        #expect(resolved.map(\.beatsPerMinute) == [61, 62, 63, 64])
        #expect(abs(resolved[0].date.timeIntervalSince(try utc("2022-11-14 23:59:31 -0800")) - 0.25) < 1e-6)
        #expect(abs(resolved[1].date.timeIntervalSince(try utc("2022-11-14 23:59:59 -0800")) - 0.99) < 1e-6)
        #expect(abs(resolved[2].date.timeIntervalSince(try utc("2022-11-15 00:00:00 -0800")) - 0.5) < 1e-6)
        #expect(abs(resolved[3].date.timeIntervalSince(try utc("2022-11-15 00:00:30 -0800")) - 0.12) < 1e-6)
        #expect(result.diagnostics.unresolvedBeatTimes == 1)
    }

    @Test func twentyFourHourReadingTimesResolveInTheRecordsOwnOffset() throws {
        let record = AppleHealthRecord(
            type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN",
            sourceName: "Watch",
            unit: "ms",
            startDate: "2023-06-01 19:35:00 +0530",
            endDate: "2023-06-01 19:36:00 +0530",
            value: "50",
            instantaneousBeatsPerMinute: [
                AppleHealthBeatsPerMinute(bpm: "70", time: "19:35:22.12"),
                AppleHealthBeatsPerMinute(bpm: "71", time: "7:35:23.5 PM"),
            ]
        )
        let resolved = record.resolvedBeatsPerMinute()
        let expected = try #require(AppleHealthDate(parsing: "2023-06-01 14:05:22 +0000")).date
        #expect(abs(resolved[0].date.timeIntervalSince(expected) - 0.12) < 1e-6)
        #expect(abs(resolved[1].date.timeIntervalSince(expected) - 1.5) < 1e-6)
    }

    // MARK: - Dates and offsets

    @Test(arguments: [
        ("2020-11-02 08:15:30 -0800", "2020-11-02T16:15:30.000Z"),
        ("2020-11-02 08:15:30 +0530", "2020-11-02T02:45:30.000Z"),
        ("2020-11-02 08:15:30 +0545", "2020-11-02T02:30:30.000Z"),
        ("2020-11-02 08:15:30 -0330", "2020-11-02T11:45:30.000Z"),
        ("2020-11-02 08:15:30 +1400", "2020-11-01T18:15:30.000Z"),
        ("2020-11-02 00:00:00 +0000", "2020-11-02T00:00:00.000Z"),
        ("2024-02-29 23:59:59 -1200", "2024-03-01T11:59:59.000Z"),
    ])
    func datesWithEveryOffsetReadAsTheirInstants(text: String, utc: String) throws {
        let date = try #require(AppleHealthDate(parsing: text))
        #expect(RFC3339.string(from: date.date) == utc)
    }

    @Test func datesAcrossADaylightSavingChangeKeepTheirOrder() throws {
        // US spring forward: 01:59:59 PST is followed by 03:00:00 PDT one second later.
        let before = try #require(AppleHealthDate(parsing: "2021-03-14 01:59:59 -0800"))
        let after = try #require(AppleHealthDate(parsing: "2021-03-14 03:00:00 -0700"))
        #expect(after.date.timeIntervalSince(before.date) == 1)
        // Fall back: 01:30 PDT, then 01:30 PST an hour later.
        let first = try #require(AppleHealthDate(parsing: "2021-11-07 01:30:00 -0700"))
        let second = try #require(AppleHealthDate(parsing: "2021-11-07 01:30:00 -0800"))
        #expect(second.date.timeIntervalSince(first.date) == 3600)
        let record = AppleHealthRecord(
            type: "HKQuantityTypeIdentifierStepCount",
            sourceName: "Phone",
            unit: "count",
            startDate: "2021-11-07 01:50:00 -0700",
            endDate: "2021-11-07 01:10:00 -0800",
            value: "300"
        )
        let sample = try record.sample(uuid: UUID(), source: importSource)
        #expect(sample.endDate.timeIntervalSince(sample.startDate) == 1200)
    }

    @Test(arguments: [
        "2020-02-30 08:15:30 -0800", "2020-11-02 24:00:00 -0800", "2020-11-02 08:15:30", "02.11.2020 08:15",
    ])
    func aDateThatIsNotOneIsAReasonToSkip(text: String) throws {
        #expect(AppleHealthDate(parsing: text) == nil)
        let result = read(export(Self.heartRate(start: text, end: "2020-11-02 08:15:30 -0800")))
        let skipped = try #require(result.skipped.first)
        #expect(skipped.reason.field == "startDate")
        #expect(!skipped.reason.message.contains("2020"))
    }

    // MARK: - Units

    @Test(arguments: [
        ("HKQuantityTypeIdentifierBodyMass", "lb", "150", "kg", 68.0388555),
        ("HKQuantityTypeIdentifierBodyTemperature", "degF", "98.6", "degC", 37),
        ("HKQuantityTypeIdentifierDistanceWalkingRunning", "mi", "1", "m", 1609.344),
        ("HKQuantityTypeIdentifierBloodGlucose", "mg/dL", "90", "mg/dL", 90),
        ("HKQuantityTypeIdentifierBloodGlucose", "mmol<180.1558800000541>/L", "5", "mg/dL", 90.0779400000),
        ("HKQuantityTypeIdentifierHeartRate", "count/min", "72", "count/min", 72),
        ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", "12.5", "kcal", 12.5),
        ("HKQuantityTypeIdentifierActiveEnergyBurned", "Cal", "12.5", "kcal", 12.5),
        ("HKQuantityTypeIdentifierHeight", "ft", "6", "m", 1.8288),
        ("HKQuantityTypeIdentifierHeight", "in", "70", "cm", 177.8),
        ("HKQuantityTypeIdentifierDietaryWater", "fl_oz_us", "8", "mL", 236.5882365),
        ("HKQuantityTypeIdentifierOxygenSaturation", "%", "0.97", "%", 0.97),
        ("HKQuantityTypeIdentifierVO2Max", "mL/min·kg", "42.5", "mL/(kg*min)", 42.5),
        ("HKQuantityTypeIdentifierEnvironmentalAudioExposure", "dBASPL", "72.3", "dBASPL", 72.3),
    ])
    func usAndMixedUnitsConvertThroughHealthModelsUnits(
        type: String,
        unit: String,
        value: String,
        target: String,
        expected: Double
    ) throws {
        let record = AppleHealthRecord(
            type: type,
            sourceName: "Phone",
            unit: unit,
            startDate: "2022-11-14 08:00:00 -0800",
            endDate: "2022-11-14 08:00:00 -0800",
            value: value
        )
        guard case .quantity(let sample) = try record.sample(uuid: UUID(), source: importSource) else {
            Issue.record("not a quantity sample")
            return
        }
        let converted = try sample.quantity.doubleValue(for: HealthUnit(from: target))
        #expect(abs(converted - expected) <= 1e-6 * max(1, abs(expected)), "\(unit): \(converted)")
    }

    // MARK: - Correlations

    @Test func aCorrelationMemberHasTheIdentityOfItsTopLevelCopyAndBothAreReported() throws {
        let systolic =
            "<Record type=\"HKQuantityTypeIdentifierBloodPressureSystolic\" sourceName=\"Health\" sourceVersion=\"16.1\" "
            + "unit=\"mmHg\" creationDate=\"2022-11-14 08:15:05 -0800\" startDate=\"2022-11-14 08:15:00 -0800\" "
            + "endDate=\"2022-11-14 08:15:00 -0800\" value=\"120\"/>\n"
        let diastolic =
            "<Record type=\"HKQuantityTypeIdentifierBloodPressureDiastolic\" sourceName=\"Health\" sourceVersion=\"16.1\" "
            + "unit=\"mmHg\" creationDate=\"2022-11-14 08:15:05 -0800\" startDate=\"2022-11-14 08:15:00 -0800\" "
            + "endDate=\"2022-11-14 08:15:00 -0800\" value=\"80\"/>\n"
        let body =
            " " + systolic + " " + diastolic
            + " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Health\" sourceVersion=\"16.1\" "
            + "creationDate=\"2022-11-14 08:15:05 -0800\" startDate=\"2022-11-14 08:15:00 -0800\" "
            + "endDate=\"2022-11-14 08:15:00 -0800\">\n"
            + "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"
            + "  " + diastolic + "  " + systolic
            + " </Correlation>\n"
        let result = read(export(body))
        #expect(result.error == nil)
        #expect(result.records.count == 2)
        let correlation = try #require(result.correlations.first)
        #expect(correlation.records.count == 2)
        #expect(correlation.records[1].identity == result.records[0].identity)
        #expect(correlation.records[0].identity == result.records[1].identity)
        #expect(result.diagnostics.correlationMembers == 2)
        #expect(result.diagnostics.records.values.reduce(0, +) == 2)

        let uuids = [UUID(), UUID()]
        let sample = try correlation.sample(uuid: UUID(), memberUUIDs: uuids, source: importSource)
        guard case .correlation(let bloodPressure) = sample else {
            Issue.record("not a correlation")
            return
        }
        #expect(Set(bloodPressure.objects.map(\.uuid)) == Set(uuids))
        #expect(bloodPressure.objects.allSatisfy { $0.sourceRevision.source == importSource })
        #expect(bloodPressure.metadata[.wasUserEntered] == .number(1))
        #expect(throws: HealthError.self) {
            try correlation.sample(uuid: UUID(), memberUUIDs: [UUID()], source: importSource)
        }
    }

    // MARK: - Characteristics

    @Test func notSetCharacteristicsMeanNothingToStore() throws {
        let body = """
             <Me HKCharacteristicTypeIdentifierDateOfBirth="" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet" \
            HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" \
            HKCharacteristicTypeIdentifierWheelchairUse="HKWheelchairUseNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="HKCardioFitnessMedicationsUseNotSet"/>

            """
        let me = try #require(read(export(body)).me)
        #expect(me.attributes.count == 6)
        #expect(me.characteristics().isEmpty)
        #expect(me.unconverted().isEmpty)
    }

    @Test func setCharacteristicsBecomeHealthModelValues() throws {
        let body = """
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1984-02-29" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" \
            HKCharacteristicTypeIdentifierBloodType="HKBloodTypeABNegative" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeIII" \
            HKCharacteristicTypeIdentifierWheelchairUse="HKWheelchairUseNo" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>

            """
        let me = try #require(read(export(body)).me)
        #expect(
            me.characteristics() == [
                .dateOfBirth(try DateOfBirth(year: 1984, month: 2, day: 29)), .biologicalSex(.female),
                .bloodType(.abNegative), .fitzpatrickSkinType(.III), .wheelchairUse(.no),
            ]
        )
        #expect(me.unconverted().map(\.field) == ["HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse"])
    }
}
