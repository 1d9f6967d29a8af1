/// The device that produced a sample, as HealthKit's `HKDevice`; every property is optional.
public struct Device: Hashable, Sendable, Codable {
    public let name: String?
    public let manufacturer: String?
    public let model: String?
    public let hardwareVersion: String?
    public let firmwareVersion: String?
    public let softwareVersion: String?
    /// An identifier the producing app uses for the device (a Bluetooth identifier, say).
    public let localIdentifier: String?
    /// The FDA Unique Device Identifier's device identifier part.
    public let udiDeviceIdentifier: String?

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
        self.name = name
        self.manufacturer = manufacturer
        self.model = model
        self.hardwareVersion = hardwareVersion
        self.firmwareVersion = firmwareVersion
        self.softwareVersion = softwareVersion
        self.localIdentifier = localIdentifier
        self.udiDeviceIdentifier = udiDeviceIdentifier
    }

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
