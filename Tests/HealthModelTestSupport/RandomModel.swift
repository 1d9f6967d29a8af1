public import Foundation
public import HealthModel
public import PropertyBased

/// Random valid model values for property-based tests, drawn from PropertyBased's seeded generator
/// so a failure reports a seed that reproduces it.
public enum RandomModel {
    public typealias RNG = any SeededRandomNumberGenerator

    public static func date(_ rng: inout RNG) -> Date {
        // 2000...2040, with sub-microsecond fractions so the date form must round-trip exactly.
        Date(timeIntervalSinceReferenceDate: Double.random(in: -31_622_400...1_230_768_000, using: &rng))
    }

    public static func string(_ rng: inout RNG) -> String {
        let alphabet = Array("abcXYZ019 -_.é✓\"\\/")
        return String((0..<Int.random(in: 1...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
    }

    public static func source(_ rng: inout RNG) -> SourceRevision {
        SourceRevision(
            source: Source(
                bundleIdentifier: "org.example.app\(Int.random(in: 0...3, using: &rng))",
                name: string(&rng)
            ),
            version: Bool.random(using: &rng) ? string(&rng) : nil,
            productType: Bool.random(using: &rng) ? "Watch7,1" : nil
        )
    }

    public static func device(_ rng: inout RNG) -> Device? {
        guard Bool.random(using: &rng) else { return nil }
        return Device(
            name: string(&rng),
            manufacturer: Bool.random(using: &rng) ? "Apple Inc." : nil,
            model: Bool.random(using: &rng) ? string(&rng) : nil,
            localIdentifier: Bool.random(using: &rng) ? UUID(using: &rng).uuidString : nil,
            udiDeviceIdentifier: Bool.random(using: &rng) ? "00888888888888" : nil
        )
    }

    /// Units of every dimension the catalog uses, to store and compare quantities in units other
    /// than the canonical one.
    public static let units: [HealthUnit] = [
        "count", "%", "count/min", "count/s", "s", "ms", "min", "hr", "d", "g", "kg", "mg", "mcg", "oz", "lb", "st",
        "m", "cm", "km", "in", "ft", "yd", "mi", "m/s", "km/hr", "L", "mL", "fl_oz_us", "cup_imp", "J", "kJ",
        "kcal", "Cal", "cal", "degC", "degF", "K", "mmHg", "cmAq", "inHg", "Pa", "kPa", "dBASPL", "mg/dL",
        "mmol<180.15588000005408>/L", "S", "mL/kg*min", "W", "dBHL", "lx",
    ].compactMap { try? HealthUnit(from: $0) }

    /// A unit compatible with `unit`: itself or another of ``units``.
    public static func unit(compatibleWith unit: HealthUnit, _ rng: inout RNG) -> HealthUnit {
        ([unit] + units.filter { $0.isCompatible(with: unit) }).randomElement(using: &rng)!
    }

    public static func metadata(_ rng: inout RNG) -> Metadata {
        var metadata: Metadata = [:]
        if Bool.random(using: &rng) {
            // Unique, so random samples never replace one another.
            metadata[.syncIdentifier] = .string(string(&rng) + UUID(using: &rng).uuidString)
            metadata[.syncVersion] = .number(Double(Int.random(in: 0...100, using: &rng)))
        }
        if Bool.random(using: &rng) { metadata[.wasUserEntered] = .bool(Bool.random(using: &rng)) }
        if Bool.random(using: &rng) { metadata[.timeZone] = .string("Europe/Paris") }
        if Bool.random(using: &rng) { metadata[.dateOfEarliestDataUsedForEstimate] = .date(date(&rng)) }
        if Bool.random(using: &rng) {
            let unit = unit(compatibleWith: .meter, &rng)
            metadata[.lapLength] = .quantity(Quantity(Double.random(in: 1...100, using: &rng), unit))
        }
        if Bool.random(using: &rng) { metadata["org.example.k"] = metadataValue(&rng) }
        if Bool.random(using: &rng) {
            metadata[MetadataKey("org.example.\(string(&rng))")] = .number(.random(in: -1e6...1e6, using: &rng))
        }
        return metadata
    }

    /// A value inside the type's domain, in its canonical unit.
    public static func value(for type: QuantityTypeIdentifier, _ rng: inout RNG) -> Double {
        let domain = type.valueDomain
        let low = max(domain.lowerBound, -50)
        let high = min(domain.upperBound, 10_000)
        return Double.random(in: low...high, using: &rng)
    }

    /// A quantity sample; `sourceRevision` when given (a correlation's objects share its source).
    public static func quantitySample(
        _ rng: inout RNG,
        type: QuantityTypeIdentifier? = nil,
        sourceRevision: SourceRevision? = nil
    ) -> QuantitySample {
        let type = type ?? QuantityTypeIdentifier.allCases.randomElement(using: &rng)!
        let start = date(&rng)
        let canonical = Quantity(value(for: type, &rng), type.canonicalUnit)
        // In another unit when the value converts there and back inside the type's domain.
        let unit = unit(compatibleWith: type.canonicalUnit, &rng)
        let converted = (try? canonical.doubleValue(for: unit)).map { Quantity($0, unit) }
        let quantity =
            converted.flatMap { (try? $0.doubleValue(for: type.canonicalUnit)).map(type.valueDomain.contains) }
                == true ? converted! : canonical
        return try! QuantitySample(
            uuid: UUID(using: &rng),
            type: type,
            quantity: quantity,
            start: start,
            end: start.addingTimeInterval(Double.random(in: 0...7200, using: &rng)),
            sourceRevision: sourceRevision ?? source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    public static func categorySample(_ rng: inout RNG) -> CategorySample {
        let type = CategoryTypeIdentifier.allCases.randomElement(using: &rng)!
        let start = date(&rng)
        return try! CategorySample(
            uuid: UUID(using: &rng),
            type: type,
            value: type.valueSet.allowedValues.randomElement(using: &rng)!,
            start: start,
            end: start.addingTimeInterval(Double.random(in: 0...36_000, using: &rng)),
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    public static func workout(_ rng: inout RNG) -> Workout {
        let start = date(&rng)
        let span = Double.random(in: 60...10_000, using: &rng)
        let events = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            let offset = Double.random(in: 0...span / 2, using: &rng)
            return WorkoutEvent(
                type: WorkoutEventType.allCases.randomElement(using: &rng)!,
                start: start.addingTimeInterval(offset),
                end: start.addingTimeInterval(offset + Double.random(in: 0...span / 2, using: &rng))
            )
        }
        return try! Workout(
            uuid: UUID(using: &rng),
            activityType: WorkoutActivityType.allCases.randomElement(using: &rng)!,
            start: start,
            end: start.addingTimeInterval(span),
            duration: Double.random(in: 0...span, using: &rng),
            totalEnergyBurned: Bool.random(using: &rng)
                ? Quantity(Double.random(in: 0...2000, using: &rng), unit(compatibleWith: .kilocalorie, &rng)) : nil,
            totalDistance: Bool.random(using: &rng)
                ? Quantity(Double.random(in: 0...50, using: &rng), unit(compatibleWith: .mile, &rng)) : nil,
            events: events,
            sourceRevision: source(&rng),
            device: device(&rng),
            metadata: metadata(&rng)
        )
    }

    public static func correlation(_ rng: inout RNG) -> Correlation {
        let start = date(&rng)
        let source = source(&rng)
        if Bool.random(using: &rng) {
            let members = [QuantityTypeIdentifier.bloodPressureSystolic, .bloodPressureDiastolic].map {
                Sample.quantity(quantitySample(&rng, type: $0, sourceRevision: source))
            }
            return try! Correlation(
                uuid: UUID(using: &rng),
                type: .bloodPressure,
                start: start,
                end: start,
                objects: members,
                sourceRevision: source
            )
        }
        let dietary = CorrelationTypeIdentifier.food.allowedMemberTypes.compactMap { type -> QuantityTypeIdentifier? in
            if case .quantity(let id) = type { id } else { nil }
        }
        let members = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
            Sample.quantity(
                quantitySample(&rng, type: dietary.randomElement(using: &rng)!, sourceRevision: source)
            )
        }
        return try! Correlation(
            uuid: UUID(using: &rng),
            type: .food,
            start: start,
            end: start.addingTimeInterval(600),
            objects: members,
            sourceRevision: source,
            metadata: [.foodType: .string(string(&rng))]
        )
    }

    public static func sample(_ rng: inout RNG) -> Sample {
        switch Int.random(in: 0...5, using: &rng) {
        case 0: .quantity(quantitySample(&rng))
        case 1: .category(categorySample(&rng))
        case 2: .workout(workout(&rng))
        case 3: .correlation(correlation(&rng))
        default: sampleOfAnotherKind(&rng)
        }
    }

    public static func metadataValue(_ rng: inout RNG) -> MetadataValue {
        switch Int.random(in: 0...3, using: &rng) {
        case 0: .string(string(&rng))
        case 1: .number(Double.random(in: -1000...1000, using: &rng))
        case 2: .date(date(&rng))
        default:
            .quantity(
                Quantity(
                    Double.random(in: 0...100, using: &rng),
                    [HealthUnit.kilometer, .meter, .mile, .foot, .gram, .pound].randomElement(using: &rng)!
                )
            )
        }
    }

    /// A random predicate; with `type`, its quantity conditions use units compatible with the type
    /// and values in its range, so they often hold.
    public static func predicate(_ rng: inout RNG, for type: SampleType? = nil, depth: Int = 0) -> SamplePredicate {
        let op = ComparisonOperator.allCases.randomElement(using: &rng)!
        let maxKind = depth >= 3 ? 20 : 23
        var kind = Int.random(in: 0...maxKind, using: &rng)
        // With a type, only conditions that apply to it.
        while let type, !applies(kind, to: type) {
            kind = Int.random(in: 0...maxKind, using: &rng)
        }
        switch kind {
        case 0:
            var options: QueryOptions = []
            if Bool.random(using: &rng) { options.insert(.strictStartDate) }
            if Bool.random(using: &rng) { options.insert(.strictEndDate) }
            let start = date(&rng)
            return .date(
                start: Bool.random(using: &rng) ? start : nil,
                end: Bool.random(using: &rng) ? start.addingTimeInterval(86_400 * 400) : nil,
                options: options
            )
        case 1: return .uuids((0..<Int.random(in: 0...3, using: &rng)).map { _ in UUID(using: &rng) })
        case 2: return .sources(["org.example.app\(Int.random(in: 0...3, using: &rng))", string(&rng)])
        case 3: return .device(DeviceProperty.allCases.randomElement(using: &rng)!, [string(&rng), "Apple Inc."])
        case 4: return .metadata(.wasUserEntered, .exists)
        case 5: return .metadata("org.example.k", .isIn([metadataValue(&rng), metadataValue(&rng)]))
        case 6: return .metadata(.syncVersion, .compare(op, metadataValue(&rng)))
        case 7:
            guard case .quantity(let id) = type else {
                return .quantity(op, Quantity(Double.random(in: 0...200, using: &rng), .countPerMinute))
            }
            let unit = unit(compatibleWith: id.canonicalUnit, &rng)
            let value = (try? Quantity(value(for: id, &rng), id.canonicalUnit).doubleValue(for: unit)) ?? 1
            return .quantity(op, Quantity(value, unit))
        case 8: return .categoryValue(op, Int.random(in: 0...5, using: &rng))
        case 9: return .workoutActivityType(WorkoutActivityType.allCases.randomElement(using: &rng)!)
        case 10: return .workoutDuration(op, Double.random(in: 0...7200, using: &rng))
        case 11:
            let unit = unit(compatibleWith: .kilocalorie, &rng)
            let value = (try? Quantity(Double.random(in: 0...2000, using: &rng), .kilocalorie).doubleValue(for: unit))
            return .workoutTotalEnergyBurned(op, Quantity(value ?? 0, unit))
        case 12:
            let unit = unit(compatibleWith: .meter, &rng)
            let value = (try? Quantity(Double.random(in: 0...80_000, using: &rng), .meter).doubleValue(for: unit))
            return .workoutTotalDistance(op, Quantity(value ?? 0, unit))
        case 13: return .metadata("org.example.k", .compare(op, metadataValue(&rng)))
        case 14: return .metadata(.lapLength, .compare(op, metadataValue(&rng)))
        case 15: return .stateOfMindKind(StateOfMind.Kind.allCases.randomElement(using: &rng)!)
        case 16: return .stateOfMindValence(op, valence(&rng))
        case 17: return .stateOfMindLabel(StateOfMind.Label.allCases.randomElement(using: &rng)!)
        case 18: return .stateOfMindAssociation(StateOfMind.Association.allCases.randomElement(using: &rng)!)
        case 19:
            return .electrocardiogramClassification(
                Electrocardiogram.Classification.allCases.randomElement(using: &rng)!
            )
        case 20:
            return .electrocardiogramSymptomsStatus(
                Electrocardiogram.SymptomsStatus.allCases.randomElement(using: &rng)!
            )
        case 21:
            return .and(
                (0..<Int.random(in: 0...3, using: &rng)).map { _ in predicate(&rng, for: type, depth: depth + 1) }
            )
        case 22:
            return .or(
                (0..<Int.random(in: 0...3, using: &rng)).map { _ in predicate(&rng, for: type, depth: depth + 1) }
            )
        default: return .not(predicate(&rng, for: type, depth: depth + 1))
        }
    }

    private static func applies(_ kind: Int, to type: SampleType) -> Bool {
        switch (kind, type) {
        case (7, .quantity), (8, .category), (9...12, .workout), (15...18, .stateOfMind), (19...20, .electrocardiogram):
            true
        case (7...12, _), (15...20, _): false
        default: true
        }
    }

    /// A valence to compare with: often one a random state of mind may hold exactly (a band's
    /// bound, -1, 0 or 1), now and then one outside -1...1.
    public static func valence(_ rng: inout RNG) -> Double {
        switch Int.random(in: 0...5, using: &rng) {
        case 0: Double(Int.random(in: 0...7, using: &rng)) * (2.0 / 7.0) - 1.0
        case 1: [-1, 0, 1].randomElement(using: &rng)!
        case 2: Double.random(in: -3...3, using: &rng)
        default: Double.random(in: -1...1, using: &rng)
        }
    }

    public static func sortDescriptors(_ rng: inout RNG) -> [SampleSortDescriptor] {
        (0..<Int.random(in: 0...2, using: &rng)).map { _ in
            SampleSortDescriptor(
                SampleSortDescriptor.Key.allCases.randomElement(using: &rng)!,
                order: Bool.random(using: &rng) ? .ascending : .descending
            )
        }
    }

    public static func statisticsOptions(_ rng: inout RNG) -> StatisticsOptions {
        StatisticsOptions(rawValue: Int.random(in: 1...127, using: &rng))
    }
}

extension UUID {
    /// A version-4 UUID from the seeded generator, so failures reproduce.
    public init(using rng: inout any SeededRandomNumberGenerator) {
        var b = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        self.init(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }
}
