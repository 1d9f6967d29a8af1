import Foundation
import HealthModel

/// Reads the lines of `samples.jsonl` that hold a plain quantity or category sample (no metadata,
/// no series, nothing beside the sample), nearly all of a vault, by hand (``JSONReader``): the
/// generic decoder cost most of an import's time. Anything else, and any line it cannot read,
/// it leaves to the decoder (nil), which reads it or names what is wrong; so it changes how fast
/// a line is read, never what it reads to. `Tests/HealthInterchangeTests/JSONExportTests.swift`
/// reads every line both ways.
struct SampleLineReader {
    private var units: [String: HealthUnit] = [:]

    mutating func sample(_ line: ArraySlice<UInt8>) -> Sample? {
        var reader = JSONReader(Array(line))
        var plain = true
        var uuid: UUID?
        var type: SampleType?
        var start: Date?
        var end: Date?
        var revision: SourceRevision?
        var device: Device?
        var quantity: Quantity?
        var value: Int?
        do {
            try reader.object { (reader, key) throws(HealthError) in
                switch key {
                case "uuid": uuid = UUID(uuidString: try reader.string())
                case "type": type = try? SampleType(identifier: try reader.string())
                case "startDate": start = try reader.date(field: "startDate")
                case "endDate": end = try reader.date(field: "endDate")
                case "sourceRevision": revision = try Self.revision(&reader)
                case "device": device = try Self.device(&reader)
                case "quantity": quantity = try self.quantity(&reader)
                case "value": value = try reader.int()
                default:
                    plain = false
                    try reader.skip()
                }
            }
            try reader.end()
        } catch {
            return nil
        }
        guard plain, let uuid, let type, let start, let end, let revision else { return nil }
        switch type {
        case .quantity(let identifier):
            guard let quantity, value == nil else { return nil }
            return try? .quantity(
                QuantitySample(
                    uuid: uuid,
                    type: identifier,
                    quantity: quantity,
                    start: start,
                    end: end,
                    sourceRevision: revision,
                    device: device
                )
            )
        case .category(let identifier):
            guard let value, quantity == nil else { return nil }
            return try? .category(
                CategorySample(
                    uuid: uuid,
                    type: identifier,
                    value: value,
                    start: start,
                    end: end,
                    sourceRevision: revision,
                    device: device
                )
            )
        default:
            return nil
        }
    }

    private mutating func quantity(_ reader: inout JSONReader) throws(HealthError) -> Quantity? {
        var unit: HealthUnit?
        var value: Double?
        var known = true
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "unit":
                let text = try reader.string()
                if let cached = units[text] {
                    unit = cached
                } else {
                    let parsed = try HealthUnit(from: text)
                    units[text] = parsed
                    unit = parsed
                }
            case "value": value = try reader.double()
            default:
                known = false
                try reader.skip()
            }
        }
        guard known, let unit, let value else { return nil }
        return Quantity(value, unit)
    }

    private static func revision(_ reader: inout JSONReader) throws(HealthError) -> SourceRevision? {
        var source: Source?
        var version: String?
        var productType: String?
        var operatingSystemVersion: String?
        var known = true
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "source": source = try Source(reading: &reader)
            case "version": version = try reader.string()
            case "productType": productType = try reader.string()
            case "operatingSystemVersion": operatingSystemVersion = try reader.string()
            default:
                known = false
                try reader.skip()
            }
        }
        guard known, let source else { return nil }
        return SourceRevision(
            source: source,
            version: version,
            productType: productType,
            operatingSystemVersion: operatingSystemVersion
        )
    }

    private static func device(_ reader: inout JSONReader) throws(HealthError) -> Device? {
        var fields: [String: String] = [:]
        try reader.object { (reader, key) throws(HealthError) in
            fields[key.description] = try reader.string()
        }
        let names: Set<String> = [
            "name", "manufacturer", "model", "hardwareVersion", "firmwareVersion", "softwareVersion",
            "localIdentifier", "udiDeviceIdentifier",
        ]
        guard fields.keys.allSatisfy(names.contains) else {
            throw HealthError.invalidArgument("a device member this reader leaves to the decoder", field: "device")
        }
        return Device(
            name: fields["name"],
            manufacturer: fields["manufacturer"],
            model: fields["model"],
            hardwareVersion: fields["hardwareVersion"],
            firmwareVersion: fields["firmwareVersion"],
            softwareVersion: fields["softwareVersion"],
            localIdentifier: fields["localIdentifier"],
            udiDeviceIdentifier: fields["udiDeviceIdentifier"]
        )
    }
}
