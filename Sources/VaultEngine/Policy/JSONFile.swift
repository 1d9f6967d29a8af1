import Foundation
import HealthModel

/// A policy or manifest file read as a JSON object, with accessors whose errors name the file,
/// the key and the problem.
struct JSONFile {
    let file: String
    private let object: [String: Any]

    /// The longest policy file or manifest read, in bytes.
    static let maximumSize = 1 << 20

    init(data: Data, file: String) throws(PolicyError) {
        self.file = file
        guard data.count <= Self.maximumSize else {
            throw PolicyError(file: file, key: nil, problem: "is larger than \(Self.maximumSize) bytes")
        }
        guard JSONNesting.isWithin(data) else {
            throw PolicyError(file: file, key: nil, problem: "is not valid JSON (\(JSONNesting.tooDeep().message))")
        }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw PolicyError(file: file, key: nil, problem: "is not valid JSON (\(error.localizedDescription))")
        }
        guard let object = value as? [String: Any] else {
            throw PolicyError(file: file, key: nil, problem: "must be a JSON object")
        }
        self.object = object
    }

    static func read(_ url: URL) throws(PolicyError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw PolicyError(file: url.path, key: nil, problem: "cannot be read (\(error.localizedDescription))")
        }
    }

    func error(_ key: String?, _ problem: String) -> PolicyError {
        PolicyError(file: file, key: key, problem: problem)
    }

    /// Refuses keys this version does not know: a misspelt key would otherwise be silently ignored.
    func refuseUnknownKeys(allowed: [String]) throws(PolicyError) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw error(key, "unknown key (known: \(allowed.joined(separator: ", ")))")
        }
    }

    func string(_ key: String, required: Bool) throws(PolicyError) -> String? {
        guard let value = object[key] else {
            if required { throw error(key, "is missing") }
            return nil
        }
        guard let string = value as? String else { throw error(key, "must be a string") }
        return string
    }

    func integer(_ key: String, required: Bool) throws(PolicyError) -> Int? {
        guard let value = object[key] else {
            if required { throw error(key, "is missing") }
            return nil
        }
        // A JSON `true` reads as a number too; its class tells it apart.
        guard let number = value as? NSNumber, !String(describing: type(of: number)).contains("Boolean"),
            let integer = Int(exactly: number.doubleValue)
        else { throw error(key, "must be an integer") }
        return integer
    }

    /// An object from type names (as in ``objectTypes(_:)``) to strings; the same type twice, under
    /// any names, is refused.
    func typePurposes(_ key: String) throws(PolicyError) -> [ObjectType: String] {
        guard let value = object[key] else { return [:] }
        guard let dictionary = value as? [String: Any] else {
            throw error(key, "must be an object from type names to the reason for each")
        }
        var purposes: [ObjectType: String] = [:]
        for name in dictionary.keys.sorted() {
            let path = "\(key).\(name)"
            let type: ObjectType
            do throws(HealthError) {
                type = try ObjectType.resolving(name)
            } catch {
                throw self.error(path, error.message)
            }
            guard let purpose = dictionary[name] as? String else { throw error(path, "must be a string") }
            guard purposes[type] == nil else { throw error(path, "\(type.identifier) is named twice") }
            purposes[type] = purpose
        }
        return purposes
    }

    /// An array of type identifiers, each read as an object type.
    /// A list of types, each by its HealthKit identifier or another of its names: its short name
    /// in any case, or an alias (docs/NAMES.md); the same type twice, under any names, is refused.
    func objectTypes(_ key: String) throws(PolicyError) -> [ObjectType] {
        guard let value = object[key] else { return [] }
        guard let array = value as? [Any] else { throw error(key, "must be an array of type identifiers") }
        var types: [ObjectType] = []
        for (index, element) in array.enumerated() {
            let path = "\(key)[\(index)]"
            guard let name = element as? String else { throw error(path, "must be a type identifier string") }
            let type: ObjectType
            do throws(HealthError) {
                type = try ObjectType.resolving(name)
            } catch {
                throw self.error(path, error.message)
            }
            guard !types.contains(type) else { throw error(path, "\(type.identifier) is listed twice") }
            types.append(type)
        }
        return types
    }
}
