import Foundation
import HealthModel
import Synchronization

/// Reads the `device` attribute, the description HealthKit prints for an `HKDevice`:
///
/// `<<HKDevice: 0x283e8c0f0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch,
/// hardware:Watch6,1, software:9.1, creation date:2022-11-14 07:59:12 +0000>`
///
/// Fields may be missing, and values contain commas (`hardware:Watch6,1`) and colons (`creation
/// date:...`), so the text is split only before `, key:` where `key` is one of HealthKit's field
/// names, never at every comma.
enum ExportDevice {
    /// The field names HealthKit prints, and the `Device` property each fills (nil: kept in no
    /// property: the date the device record was created).
    private static let fields: [(name: String, property: DeviceProperty?)] = [
        ("name", .name),
        ("manufacturer", .manufacturer),
        ("model", .model),
        ("hardware", .hardwareVersion),
        ("firmware", .firmwareVersion),
        ("software", .softwareVersion),
        ("localIdentifier", .localIdentifier),
        ("UDIDeviceIdentifier", .udiDeviceIdentifier),
        ("creation date", nil),
    ]

    private static let cache = Mutex<[String: Device?]>([:])
    private static let maximumCachedDevices = 4096

    /// The device's fields, or nil when the text names none. Parsed once per distinct text (an
    /// export names a few devices millions of times).
    static func device(_ text: String) -> Device? {
        if let cached = cache.withLock({ $0[text] }) {
            return cached
        }
        let device = parse(text)
        cache.withLock { cache in
            if cache.count < maximumCachedDevices {
                cache[text] = device
            }
        }
        return device
    }

    private static func parse(_ text: String) -> Device? {
        let values = fieldValues(text)
        func value(_ property: DeviceProperty) -> String? {
            values.first { $0.property == property }.map(\.value)
        }
        guard values.contains(where: { $0.property != nil }) else { return nil }
        return Device(
            name: value(.name),
            manufacturer: value(.manufacturer),
            model: value(.model),
            hardwareVersion: value(.hardwareVersion),
            firmwareVersion: value(.firmwareVersion),
            softwareVersion: value(.softwareVersion),
            localIdentifier: value(.localIdentifier),
            udiDeviceIdentifier: value(.udiDeviceIdentifier)
        )
    }

    // Keyed by the text's bytes: Swift's `==` on strings follows canonical equivalence, and an
    // identity is bytes (two spellings of one name must not share an entry).
    private static let withoutAddressCache = Mutex<[ExactText: String]>([:])

    /// The text without the object's address (`<<HKDevice: 0x283e8c0f0>` becomes `<<HKDevice>`),
    /// which differs from one export to the next for the same device. Made once per distinct
    /// text, as ``device(_:)`` (Foundation's search and replace on every record took a tenth of
    /// an import's reading).
    static func withoutAddress(_ text: String) -> String {
        let key = ExactText(text)
        if let cached = withoutAddressCache.withLock({ $0[key] }) {
            return cached
        }
        let result = removingAddress(text)
        withoutAddressCache.withLock { cache in
            if cache.count < maximumCachedDevices {
                cache[key] = result
            }
        }
        return result
    }

    private static func removingAddress(_ text: String) -> String {
        guard let range = text.range(of: "<<HKDevice: 0x") else { return text }
        var end = range.upperBound
        while end < text.endIndex, text[end].isHexDigit {
            end = text.index(after: end)
        }
        return text.replacingCharacters(in: range.lowerBound..<end, with: "<<HKDevice")
    }

    private static func fieldValues(_ text: String) -> [(property: DeviceProperty?, value: String)] {
        var body = Substring(text)
        // The object's address, then ", " before the first field.
        if body.hasPrefix("<<"), let close = body.firstIndex(of: ">") {
            body = body[body.index(after: close)...]
        }
        if body.hasSuffix(">") {
            body = body.dropLast()
        }
        // Every place a known field begins: at the start, or after ", ".
        var starts: [(index: String.Index, valueStart: String.Index, property: DeviceProperty?)] = []
        var index = body.startIndex
        while index < body.endIndex {
            let atBoundary =
                index == body.startIndex
                || (body[..<index].hasSuffix(", ") || body[..<index].hasSuffix(","))
            if atBoundary {
                for field in fields {
                    let rest = body[index...]
                    if rest.hasPrefix(field.name + ":") {
                        starts.append(
                            (index, body.index(index, offsetBy: field.name.count + 1), field.property)
                        )
                        break
                    }
                }
            }
            index = body.index(after: index)
        }
        var values: [(property: DeviceProperty?, value: String)] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1].index : body.endIndex
            // Drop the ", " that separates this value from the next field.
            var value = body[start.valueStart..<end]
            while let last = value.last, last == " " || last == "," {
                value = value.dropLast()
            }
            let trimmed = value.drop { $0 == " " }
            if !trimmed.isEmpty, !values.contains(where: { $0.property == start.property && start.property != nil }) {
                values.append((start.property, String(trimmed)))
            }
        }
        return values
    }
}

/// Text compared and hashed by its UTF-8 bytes, for a cache whose answer depends on the bytes.
struct ExactText: Hashable, Sendable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var copy = text
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
