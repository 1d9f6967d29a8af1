public import Foundation

// Statistics write and read their wire JSON by hand (JSONWriter, JSONReader): a statistics
// collection of a year in hours is 8,760 objects, and the generic coders spent more time on it
// than the vault spent computing it. The form is exactly the Codable one (docs/MODEL_JSON.md);
// Tests/HealthModelTests/JSONWriterTests.swift compares both, byte for byte and value for value
// (JSONReader's few differences from Foundation's decoder are in its documentation).

extension Quantity: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"unit\":")
        writer.string(unit.unitString)
        writer.raw(",\"value\":")
        try writer.number(value)
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var unit: HealthUnit?
        var value: Double?
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "unit": unit = try reader.unit()
            case "value": value = try reader.double()
            default: try reader.skip()
            }
        }
        guard let unit else { throw HealthError.invalidArgument("a quantity needs a unit", field: "unit") }
        guard let value else { throw HealthError.invalidArgument("a quantity needs a value", field: "value") }
        self.init(value, unit)
    }
}

extension Source: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"bundleIdentifier\":")
        writer.string(bundleIdentifier)
        writer.raw(",\"name\":")
        writer.string(name)
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var bundleIdentifier: String?
        var name: String?
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "bundleIdentifier": bundleIdentifier = try reader.string()
            case "name": name = try reader.string()
            default: try reader.skip()
            }
        }
        guard let bundleIdentifier, let name else {
            throw missingField([("bundleIdentifier", bundleIdentifier == nil), ("name", name == nil)])
        }
        self.init(bundleIdentifier: bundleIdentifier, name: name)
    }
}

extension StatisticsValues: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        // The members present, in the order of their names.
        var first = true
        func member(_ name: StaticString, _ quantity: Quantity?) throws {
            guard let quantity else { return }
            writer.key(name, first: &first)
            try quantity.write(to: &writer)
        }
        func member(_ name: StaticString, _ date: Date?) throws {
            guard let date else { return }
            writer.key(name, first: &first)
            try writer.date(date)
        }
        writer.raw("{")
        try member("average", average)
        try member("duration", duration)
        try member("maximum", maximum)
        try member("minimum", minimum)
        try member("mostRecent", mostRecent)
        try member("mostRecentEndDate", mostRecentEndDate)
        try member("mostRecentStartDate", mostRecentStartDate)
        try member("sum", sum)
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var sum: Quantity?
        var average: Quantity?
        var minimum: Quantity?
        var maximum: Quantity?
        var mostRecent: Quantity?
        var duration: Quantity?
        var start: Date?
        var end: Date?
        func quantity(_ reader: inout JSONReader) throws(HealthError) -> Quantity? {
            try reader.null() ? nil : try Quantity(reading: &reader)
        }
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "sum": sum = try quantity(&reader)
            case "average": average = try quantity(&reader)
            case "minimum": minimum = try quantity(&reader)
            case "maximum": maximum = try quantity(&reader)
            case "mostRecent": mostRecent = try quantity(&reader)
            case "duration": duration = try quantity(&reader)
            case "mostRecentStartDate":
                start = try reader.null() ? nil : try reader.date(field: "mostRecentStartDate")
            case "mostRecentEndDate":
                end = try reader.null() ? nil : try reader.date(field: "mostRecentEndDate")
            default: try reader.skip()
            }
        }
        self.init(
            sum: sum,
            average: average,
            minimum: minimum,
            maximum: maximum,
            mostRecent: mostRecent,
            mostRecentStartDate: start,
            mostRecentEndDate: end,
            duration: duration
        )
    }
}

extension SourceStatistics: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"source\":")
        try source.write(to: &writer)
        writer.raw(",\"values\":")
        try values.write(to: &writer)
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var source: Source?
        var values: StatisticsValues?
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "source": source = try Source(reading: &reader)
            case "values": values = try StatisticsValues(reading: &reader)
            default: try reader.skip()
            }
        }
        guard let source, let values else {
            throw missingField([("source", source == nil), ("values", values == nil)])
        }
        self.init(source: source, values: values)
    }
}

extension Statistics: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"endDate\":")
        try writer.date(endDate)
        writer.raw(",\"quantityType\":")
        writer.string(quantityType.rawValue)
        writer.raw(",\"sources\":")
        try writer.array(sources) { try $1.write(to: &$0) }
        writer.raw(",\"startDate\":")
        try writer.date(startDate)
        writer.raw(",\"values\":")
        try values.write(to: &writer)
        writer.raw(",\"valuesBySource\":")
        try writer.array(valuesBySource) { try $1.write(to: &$0) }
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var type: QuantityTypeIdentifier?
        var start: Date?
        var end: Date?
        var values: StatisticsValues?
        var sources: [Source]?
        var bySource: [SourceStatistics]?
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "quantityType": type = try reader.quantityType()
            case "startDate": start = try reader.date(field: "startDate")
            case "endDate": end = try reader.date(field: "endDate")
            case "values": values = try StatisticsValues(reading: &reader)
            case "sources":
                var list: [Source] = []
                try reader.array { (reader) throws(HealthError) in list.append(try Source(reading: &reader)) }
                sources = list
            case "valuesBySource":
                var list: [SourceStatistics] = []
                try reader.array { (reader) throws(HealthError) in list.append(try SourceStatistics(reading: &reader)) }
                bySource = list
            default: try reader.skip()
            }
        }
        guard let type, let start, let end, let values, let sources, let bySource else {
            throw missingField([
                ("quantityType", type == nil), ("startDate", start == nil), ("endDate", end == nil),
                ("values", values == nil), ("sources", sources == nil), ("valuesBySource", bySource == nil),
            ])
        }
        self.init(
            quantityType: type,
            startDate: start,
            endDate: end,
            values: values,
            sources: sources,
            valuesBySource: bySource
        )
    }
}

extension IntervalComponents: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        // The non-zero fields, as the Codable form writes them, in the order of their names.
        var first = true
        writer.raw("{")
        for (name, value) in [
            ("day", day), ("hour", hour), ("minute", minute), ("month", month), ("second", second),
            ("weekOfYear", weekOfYear), ("year", year),
        ] where value != 0 {
            if !first { writer.raw(",") }
            first = false
            writer.string(name)
            writer.raw(":")
            writer.number(value)
        }
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var fields: [String: Int] = [:]
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "year", "month", "weekOfYear", "day", "hour", "minute", "second":
                fields[key.description] = try reader.null() ? 0 : try reader.int()
            default: try reader.skip()
            }
        }
        self.init(
            year: fields["year"] ?? 0,
            month: fields["month"] ?? 0,
            weekOfYear: fields["weekOfYear"] ?? 0,
            day: fields["day"] ?? 0,
            hour: fields["hour"] ?? 0,
            minute: fields["minute"] ?? 0,
            second: fields["second"] ?? 0
        )
    }
}

extension StatisticsCollection: JSONWritable, JSONReadable {
    public func write(to writer: inout JSONWriter) throws {
        writer.raw("{\"anchorDate\":")
        try writer.date(anchorDate)
        writer.raw(",\"intervalComponents\":")
        try intervalComponents.write(to: &writer)
        writer.raw(",\"quantityType\":")
        writer.string(quantityType.rawValue)
        writer.raw(",\"statistics\":")
        try writer.array(statistics) { try $1.write(to: &$0) }
        writer.raw(",\"timeZone\":")
        writer.string(timeZone)
        writer.raw("}")
    }

    public init(reading reader: inout JSONReader) throws(HealthError) {
        var type: QuantityTypeIdentifier?
        var anchor: Date?
        var components: IntervalComponents?
        var zone: String?
        var statistics: [Statistics]?
        try reader.object { (reader, key) throws(HealthError) in
            switch key {
            case "quantityType": type = try reader.quantityType()
            case "anchorDate": anchor = try reader.date(field: "anchorDate")
            case "intervalComponents": components = try IntervalComponents(reading: &reader)
            case "timeZone": zone = try reader.string()
            case "statistics":
                var list: [Statistics] = []
                try reader.array { (reader) throws(HealthError) in list.append(try Statistics(reading: &reader)) }
                statistics = list
            default: try reader.skip()
            }
        }
        guard let type, let anchor, let components, let zone, let statistics else {
            throw missingField([
                ("quantityType", type == nil), ("anchorDate", anchor == nil),
                ("intervalComponents", components == nil), ("timeZone", zone == nil),
                ("statistics", statistics == nil),
            ])
        }
        self.init(
            quantityType: type,
            anchorDate: anchor,
            intervalComponents: components,
            timeZone: zone,
            inWireOrder: statistics
        )
    }
}

/// The error for the first member missing, as ``HealthJSON/decode(_:from:)`` names it.
func missingField(_ members: [(name: String, missing: Bool)]) -> HealthError {
    HealthError.invalidArgument("missing field", field: members.first { $0.missing }?.name ?? "")
}
