public import Foundation
public import HealthModel

/// A JSON-RPC id: a number or a string, echoed as given.
public enum RPCID: Hashable, Sendable, Codable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .string(let string): string
        }
    }
}

/// An error answer: JSON-RPC's `code` and `message`, and in `data` the ``HealthError`` (its
/// string code, message and field) an app switches on.
public struct RPCError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: HealthError?

    public init(code: Int, message: String, data: HealthError? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String {
        if let data { return data.description }
        return "\(message) (\(code))"
    }

    /// The ``HealthError`` to hand an app: `data` when present, else one built from the code.
    public var healthError: HealthError {
        if let data { return data }
        switch code {
        case Self.frameTooLarge, Self.rateLimited: return HealthError(.dataSizeExceeded, message)
        case Self.invalidParams, Self.invalidRequest, Self.parseError: return HealthError(.invalidArgument, message)
        case Self.authenticationFailed, Self.notAuthenticated: return HealthError(.authorizationDenied, message)
        case Self.vaultLocked: return HealthError(.databaseInaccessible, message)
        default: return HealthError(.unknownError, message)
        }
    }

    // JSON-RPC 2.0's own codes.
    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603
    // HealthVault's (the implementation-defined server-error range).
    /// The vault answered with a ``HealthError`` (in `data`).
    public static let healthError = -32000
    /// Authentication failed: one answer for every cause (unknown app, wrong key, replayed,
    /// late, wrong uid, wrong version).
    public static let authenticationFailed = -32001
    /// A method other than `authenticate` before authenticating.
    public static let notAuthenticated = -32002
    /// The frame's length exceeds the daemon's maximum; the connection closes.
    public static let frameTooLarge = -32003
    /// More connections than the daemon serves at once; the connection closes.
    public static let tooManyConnections = -32004
    /// More requests per second than the daemon allows one connection; this request was not run.
    public static let rateLimited = -32005
    /// The request took longer than the daemon's request timeout; it may still complete.
    public static let timedOut = -32006
    /// The vault is locked; the owner unlocks it.
    public static let vaultLocked = -32007
    /// The daemon is shutting down; this request was not run.
    public static let shuttingDown = -32008

    public static func from(_ error: HealthError) -> RPCError {
        RPCError(code: healthError, message: error.message, data: error)
    }
}

/// The first member of every message.
public let jsonRPCVersion = "2.0"

/// A request: `{"jsonrpc": "2.0", "id": ..., "method": ..., "params": {...}}`.
public struct RPCRequest<Params: Encodable>: Encodable {
    public var jsonrpc = jsonRPCVersion
    public var id: RPCID
    public var method: String
    public var params: Params

    public init(id: RPCID, method: String, params: Params) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// A success answer: `{"id": ..., "jsonrpc": "2.0", "result": {...}}`.
public struct RPCResponse<Result: Encodable>: Encodable {
    public var jsonrpc = jsonRPCVersion
    public var id: RPCID
    public var result: Result

    public init(id: RPCID, result: Result) {
        self.id = id
        self.result = result
    }
}

/// An error answer: `{"error": {...}, "id": ... or null, "jsonrpc": "2.0"}`.
public struct RPCErrorResponse: Encodable {
    public var jsonrpc = jsonRPCVersion
    public var id: RPCID?
    public var error: RPCError

    public init(id: RPCID?, error: RPCError) {
        self.id = id
        self.error = error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(jsonrpc, forKey: .jsonrpc)
        // JSON-RPC: an error about a request whose id could not be read has id null.
        try container.encode(id, forKey: .id)
        try container.encode(error, forKey: .error)
    }

    enum CodingKeys: String, CodingKey {
        case jsonrpc, id, error
    }
}

/// A notification (no id, no answer): `{"jsonrpc": "2.0", "method": ..., "params": {...}}`.
public struct RPCNotification<Params: Encodable>: Encodable {
    public var jsonrpc = jsonRPCVersion
    public var method: String
    public var params: Params

    public init(method: String, params: Params) {
        self.method = method
        self.params = params
    }
}

/// What every incoming message is read as first: its kind and routing, not its body.
public struct RPCHead: Decodable, Sendable {
    public var jsonrpc: String?
    public var id: RPCID?
    public var method: String?
    public var hasResult: Bool
    public var error: RPCError?

    enum CodingKeys: String, CodingKey {
        case jsonrpc, id, method, result, error
    }

    init(jsonrpc: String?, id: RPCID?, method: String?, hasResult: Bool, error: RPCError?) {
        self.jsonrpc = jsonrpc
        self.id = id
        self.method = method
        self.hasResult = hasResult
        self.error = error
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        jsonrpc = try container.decodeIfPresent(String.self, forKey: .jsonrpc)
        id = try? container.decodeIfPresent(RPCID.self, forKey: .id)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        hasResult = container.contains(.result)
        error = try container.decodeIfPresent(RPCError.self, forKey: .error)
    }
}

/// A message's `params` member, decoded as `Params`; a missing `params` reads as `{}`.
public struct RPCParams<Params: Decodable>: Decodable {
    public var params: Params

    enum CodingKeys: String, CodingKey {
        case params
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.params) {
            params = try container.decode(Params.self, forKey: .params)
        } else {
            params = try HealthJSON.decoder().decode(Params.self, from: Data("{}".utf8))
        }
    }
}

/// A message's `result` member, decoded as `Result`.
public struct RPCResult<Result: Decodable>: Decodable {
    public var result: Result
}

/// No parameters, or no result: `{}`.
public struct Empty: Hashable, Sendable, Codable {
    public init() {}
}
