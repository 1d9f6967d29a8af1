import Foundation

// The JSON form: one object per node, its `kind` naming the case, e.g.
// {"kind":"date","startDate":"…","endDate":"…","options":["strictStartDate"]}
// {"kind":"quantity","operator":"greaterThan","quantity":{"value":100,"unit":"count/min"}}
// {"kind":"stateOfMindLabel","label":17}   {"kind":"electrocardiogramClassification","classification":2}
// {"kind":"and","predicates":[…]}   {"kind":"not","predicate":{…}}
// docs/MODEL_JSON.md ("Predicates") lists every kind and its fields.
extension SamplePredicate {
    private enum Kind: String, Codable {
        case date, uuids, sources, device, metadata, quantity, categoryValue
        case workoutActivityType, workoutDuration, workoutTotalEnergyBurned, workoutTotalDistance, workout
        case stateOfMindKind, stateOfMindValence, stateOfMindLabel, stateOfMindAssociation
        case electrocardiogramClassification, electrocardiogramSymptomsStatus
        case and, or, not
    }

    private enum CodingKeys: String, CodingKey {
        case kind, startDate, endDate, options, uuids, bundleIdentifiers, property, values, key, condition
        case `operator`, quantity, value, activityType, duration, predicates, predicate, workout
        case stateOfMindKind, valence, label, association, classification, symptomsStatus
    }

    public init(from decoder: any Decoder) throws {
        // Refuse absurd nesting while decoding, before recursion can exhaust a small stack;
        // validate(for:) then applies the exact limit.
        guard decoder.codingPath.count <= 2 * Self.maximumDepth + 16 else {
            throw HealthError.invalidArgument("the predicate is nested too deeply").field(at: decoder.codingPath)
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kindName = try container.decode(String.self, forKey: .kind)
        guard let kind = Kind(rawValue: kindName) else {
            throw HealthError.invalidArgument("unknown predicate kind \"\(kindName)\"")
                .field(at: decoder.codingPath + [CodingKeys.kind])
        }
        switch kind {
        case .date:
            self = .date(
                start: try container.decodeIfPresent(Date.self, forKey: .startDate),
                end: try container.decodeIfPresent(Date.self, forKey: .endDate),
                options: try container.decodeIfPresent(QueryOptions.self, forKey: .options) ?? []
            )
        case .uuids:
            self = .uuids(try container.decode([UUID].self, forKey: .uuids))
        case .workout:
            self = .workout(try container.decode(UUID.self, forKey: .workout))
        case .sources:
            self = .sources(try container.decode([String].self, forKey: .bundleIdentifiers))
        case .device:
            self = .device(
                try container.decode(DeviceProperty.self, forKey: .property),
                try container.decode([String].self, forKey: .values)
            )
        case .metadata:
            let key = try container.decode(MetadataKey.self, forKey: .key)
            let condition = try container.decode(String.self, forKey: .condition)
            switch condition {
            case "exists":
                self = .metadata(key, .exists)
            case "in":
                self = .metadata(key, .isIn(try container.decode([MetadataValue].self, forKey: .values)))
            case "compare":
                self = .metadata(
                    key,
                    .compare(
                        try container.decode(ComparisonOperator.self, forKey: .operator),
                        try container.decode(MetadataValue.self, forKey: .value)
                    )
                )
            default:
                throw HealthError.invalidArgument("unknown metadata condition \"\(condition)\"")
                    .field(at: decoder.codingPath + [CodingKeys.condition])
            }
        case .quantity:
            self = .quantity(
                try container.decode(ComparisonOperator.self, forKey: .operator),
                try container.decode(Quantity.self, forKey: .quantity)
            )
        case .categoryValue:
            self = .categoryValue(
                try container.decode(ComparisonOperator.self, forKey: .operator),
                try container.decode(Int.self, forKey: .value)
            )
        case .workoutActivityType:
            self = .workoutActivityType(try container.decode(WorkoutActivityType.self, forKey: .activityType))
        case .workoutDuration:
            self = .workoutDuration(
                try container.decode(ComparisonOperator.self, forKey: .operator),
                try container.decode(TimeInterval.self, forKey: .duration)
            )
        case .workoutTotalEnergyBurned:
            self = .workoutTotalEnergyBurned(
                try container.decode(ComparisonOperator.self, forKey: .operator),
                try container.decode(Quantity.self, forKey: .quantity)
            )
        case .workoutTotalDistance:
            self = .workoutTotalDistance(
                try container.decode(ComparisonOperator.self, forKey: .operator),
                try container.decode(Quantity.self, forKey: .quantity)
            )
        case .stateOfMindKind:
            self = .stateOfMindKind(try container.decode(StateOfMind.Kind.self, forKey: .stateOfMindKind))
        case .stateOfMindValence:
            self = .stateOfMindValence(
                try container.decode(ComparisonOperator.self, forKey: .operator),
                try container.decode(Double.self, forKey: .valence)
            )
        case .stateOfMindLabel:
            self = .stateOfMindLabel(try container.decode(StateOfMind.Label.self, forKey: .label))
        case .stateOfMindAssociation:
            self = .stateOfMindAssociation(try container.decode(StateOfMind.Association.self, forKey: .association))
        case .electrocardiogramClassification:
            self = .electrocardiogramClassification(
                try container.decode(Electrocardiogram.Classification.self, forKey: .classification)
            )
        case .electrocardiogramSymptomsStatus:
            self = .electrocardiogramSymptomsStatus(
                try container.decode(Electrocardiogram.SymptomsStatus.self, forKey: .symptomsStatus)
            )
        case .and:
            self = .and(try container.decode([SamplePredicate].self, forKey: .predicates))
        case .or:
            self = .or(try container.decode([SamplePredicate].self, forKey: .predicates))
        case .not:
            self = .not(try container.decode(SamplePredicate.self, forKey: .predicate))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .date(let start, let end, let options):
            try container.encode(Kind.date, forKey: .kind)
            try container.encodeIfPresent(start, forKey: .startDate)
            try container.encodeIfPresent(end, forKey: .endDate)
            try container.encode(options, forKey: .options)
        case .workout(let uuid):
            try container.encode(Kind.workout, forKey: .kind)
            try container.encode(uuid, forKey: .workout)
        case .uuids(let uuids):
            try container.encode(Kind.uuids, forKey: .kind)
            try container.encode(uuids, forKey: .uuids)
        case .sources(let identifiers):
            try container.encode(Kind.sources, forKey: .kind)
            try container.encode(identifiers, forKey: .bundleIdentifiers)
        case .device(let property, let values):
            try container.encode(Kind.device, forKey: .kind)
            try container.encode(property, forKey: .property)
            try container.encode(values, forKey: .values)
        case .metadata(let key, let condition):
            try container.encode(Kind.metadata, forKey: .kind)
            try container.encode(key, forKey: .key)
            switch condition {
            case .exists:
                try container.encode("exists", forKey: .condition)
            case .isIn(let values):
                try container.encode("in", forKey: .condition)
                try container.encode(values, forKey: .values)
            case .compare(let op, let value):
                try container.encode("compare", forKey: .condition)
                try container.encode(op, forKey: .operator)
                try container.encode(value, forKey: .value)
            }
        case .quantity(let op, let quantity):
            try container.encode(Kind.quantity, forKey: .kind)
            try container.encode(op, forKey: .operator)
            try container.encode(quantity, forKey: .quantity)
        case .categoryValue(let op, let value):
            try container.encode(Kind.categoryValue, forKey: .kind)
            try container.encode(op, forKey: .operator)
            try container.encode(value, forKey: .value)
        case .workoutActivityType(let activityType):
            try container.encode(Kind.workoutActivityType, forKey: .kind)
            try container.encode(activityType, forKey: .activityType)
        case .workoutDuration(let op, let duration):
            try container.encode(Kind.workoutDuration, forKey: .kind)
            try container.encode(op, forKey: .operator)
            try container.encode(duration, forKey: .duration)
        case .workoutTotalEnergyBurned(let op, let quantity):
            try container.encode(Kind.workoutTotalEnergyBurned, forKey: .kind)
            try container.encode(op, forKey: .operator)
            try container.encode(quantity, forKey: .quantity)
        case .workoutTotalDistance(let op, let quantity):
            try container.encode(Kind.workoutTotalDistance, forKey: .kind)
            try container.encode(op, forKey: .operator)
            try container.encode(quantity, forKey: .quantity)
        case .stateOfMindKind(let kind):
            try container.encode(Kind.stateOfMindKind, forKey: .kind)
            try container.encode(kind, forKey: .stateOfMindKind)
        case .stateOfMindValence(let op, let valence):
            try container.encode(Kind.stateOfMindValence, forKey: .kind)
            try container.encode(op, forKey: .operator)
            try container.encode(valence, forKey: .valence)
        case .stateOfMindLabel(let label):
            try container.encode(Kind.stateOfMindLabel, forKey: .kind)
            try container.encode(label, forKey: .label)
        case .stateOfMindAssociation(let association):
            try container.encode(Kind.stateOfMindAssociation, forKey: .kind)
            try container.encode(association, forKey: .association)
        case .electrocardiogramClassification(let classification):
            try container.encode(Kind.electrocardiogramClassification, forKey: .kind)
            try container.encode(classification, forKey: .classification)
        case .electrocardiogramSymptomsStatus(let status):
            try container.encode(Kind.electrocardiogramSymptomsStatus, forKey: .kind)
            try container.encode(status, forKey: .symptomsStatus)
        case .and(let predicates):
            try container.encode(Kind.and, forKey: .kind)
            try container.encode(predicates, forKey: .predicates)
        case .or(let predicates):
            try container.encode(Kind.or, forKey: .kind)
            try container.encode(predicates, forKey: .predicates)
        case .not(let predicate):
            try container.encode(Kind.not, forKey: .kind)
            try container.encode(predicate, forKey: .predicate)
        }
    }
}
