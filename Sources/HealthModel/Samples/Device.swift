/// The device that produced a sample, as HealthKit's `HKDevice`; every property is optional.
public struct Device: Hashable, Sendable, Codable, CustomReflectable {
    /// The properties, behind one reference (``Shared``): a device is copied with every sample
    /// that names it.
    private struct Properties: Hashable, Sendable, Codable {
        let name: String?
        let manufacturer: String?
        let model: String?
        let hardwareVersion: String?
        let firmwareVersion: String?
        let softwareVersion: String?
        let localIdentifier: String?
        let udiDeviceIdentifier: String?
    }

    private let properties: Shared<Properties>

    public var name: String? { properties.value.name }
    public var manufacturer: String? { properties.value.manufacturer }
    public var model: String? { properties.value.model }
    public var hardwareVersion: String? { properties.value.hardwareVersion }
    public var firmwareVersion: String? { properties.value.firmwareVersion }
    public var softwareVersion: String? { properties.value.softwareVersion }
    /// An identifier the producing app uses for the device (a Bluetooth identifier, say).
    public var localIdentifier: String? { properties.value.localIdentifier }
    /// The FDA Unique Device Identifier's device identifier part.
    public var udiDeviceIdentifier: String? { properties.value.udiDeviceIdentifier }

    public init(
        name: String? = nil,
        manufacturer: String? = nil,
        model: String? = nil,
        hardwareVersion: String? = nil,
        firmwareVersion: String? = nil,
        softwareVersion: String? = nil,
        localIdentifier: String? = nil,
        udiDeviceIdentifier: String? = nil
    ) {
        properties = Shared(
            Properties(
                name: name,
                manufacturer: manufacturer,
                model: model,
                hardwareVersion: hardwareVersion,
                firmwareVersion: firmwareVersion,
                softwareVersion: softwareVersion,
                localIdentifier: localIdentifier,
                udiDeviceIdentifier: udiDeviceIdentifier
            )
        )
    }

    /// The JSON object of its properties, each absent when nil.
    public init(from decoder: any Decoder) throws {
        properties = try Shared(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try properties.encode(to: encoder)
    }

    /// Its properties, as a value holding them inline shows them (`print`, `dump`, test failures).
    public var customMirror: Mirror { properties.mirror(of: self) }

    /// The value of one property, by the name predicates use.
    public subscript(property: DeviceProperty) -> String? {
        switch property {
        case .name: name
        case .manufacturer: manufacturer
        case .model: model
        case .hardwareVersion: hardwareVersion
        case .firmwareVersion: firmwareVersion
        case .softwareVersion: softwareVersion
        case .localIdentifier: localIdentifier
        case .udiDeviceIdentifier: udiDeviceIdentifier
        }
    }
}

/// A property of ``Device``, for predicates (HealthKit's `HKDevicePropertyKey…`).
public enum DeviceProperty: String, Hashable, Sendable, Codable, CaseIterable {
    case name
    case manufacturer
    case model
    case hardwareVersion
    case firmwareVersion
    case softwareVersion
    case localIdentifier
    case udiDeviceIdentifier
}
