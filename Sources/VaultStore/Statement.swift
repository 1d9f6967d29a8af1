public import Foundation

/// A prepared statement: bind, step, read columns. Belongs to one connection; not thread-safe.
public final class Statement {
    let handle: SQLite.StatementHandle
    private unowned let connection: Connection

    init(handle: SQLite.StatementHandle, connection: Connection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        SQLite.finalize(handle)
    }

    public var sql: String { SQLite.sql(handle) }

    /// Resets the statement and binds `values` to its parameters, in order.
    public func bind(_ values: [any DatabaseValueConvertible]) throws(DatabaseError) {
        SQLite.reset(handle)
        for (index, value) in values.enumerated() {
            let code = SQLite.bind(handle, Int32(index + 1), value.databaseValue)
            guard code == SQLite.ok else { throw connection.error(code: code, sql: sql) }
        }
    }

    /// Binds already-converted values: the hot path of bulk inserts.
    public func bind(values: [DatabaseValue]) throws(DatabaseError) {
        SQLite.reset(handle)
        for index in values.indices {
            let code = SQLite.bind(handle, Int32(index + 1), values[index])
            guard code == SQLite.ok else { throw connection.error(code: code, sql: sql) }
        }
    }

    /// Resets the statement and clears its parameters, for binding one at a time
    /// (``bind(_:at:)``): a bulk insert's rows then need no array each.
    public func reset() {
        SQLite.reset(handle)
    }

    /// Binds `value` to parameter `position` (from 1).
    public func bind(_ value: DatabaseValue, at position: Int32) throws(DatabaseError) {
        let code = SQLite.bind(handle, position, value)
        guard code == SQLite.ok else { throw connection.error(code: code, sql: sql) }
    }

    /// Binds a UUID's 16 bytes to parameter `position` (from 1), as UUIDs are stored.
    public func bind(_ uuid: UUID, at position: Int32) throws(DatabaseError) {
        let code = withUnsafeBytes(of: uuid.uuid) { SQLite.bind(handle, position, bytes: $0) }
        guard code == SQLite.ok else { throw connection.error(code: code, sql: sql) }
    }

    /// Runs the bound statement to completion, ignoring rows.
    public func run() throws(DatabaseError) {
        while try step() {}
    }

    /// Binds already-converted values and runs to completion.
    public func execute(values: [DatabaseValue]) throws(DatabaseError) {
        try bind(values: values)
        while try step() {}
    }

    /// Advances to the next row; false when there are no more.
    public func step() throws(DatabaseError) -> Bool {
        let code = SQLite.step(handle)
        if code == SQLite.row { return true }
        if code == SQLite.done { return false }
        let error = connection.error(code: code, sql: sql)
        SQLite.reset(handle)
        throw error
    }

    /// Binds and runs to completion, ignoring rows.
    public func execute(_ values: [any DatabaseValueConvertible] = []) throws(DatabaseError) {
        try bind(values)
        while try step() {}
    }

    /// Binds, runs, and returns every row.
    public func rows(_ values: [any DatabaseValueConvertible] = []) throws(DatabaseError) -> [Row] {
        try bind(values)
        var rows: [Row] = []
        let count = SQLite.columnCount(handle)
        while try step() {
            rows.append(Row(values: (0..<count).map { SQLite.column(handle, $0) }))
        }
        return rows
    }

    public func int64(at index: Int) -> Int64 { SQLite.columnInt64(handle, Int32(index)) }
    public func double(at index: Int) -> Double { SQLite.columnDouble(handle, Int32(index)) }
    public func isNull(at index: Int) -> Bool { SQLite.columnIsNull(handle, Int32(index)) }
    public func value(at index: Int) -> DatabaseValue { SQLite.column(handle, Int32(index)) }
    /// A stored UUID (16 bytes) read in place, without copying the blob; nil for anything else.
    public func uuid(at index: Int) -> UUID? {
        guard let bytes = SQLite.columnBlob(handle, Int32(index), count: 16) else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: bytes) }
        return UUID(uuid: raw)
    }
}

/// One result row.
public struct Row: Hashable, Sendable {
    public let values: [DatabaseValue]

    public subscript(index: Int) -> DatabaseValue { values[index] }
}
