/// The primitive `encode` overloads shared by the single-value and the unkeyed container of
/// ``WireJSONEncoder``: each places a node (or a value that needs its own encoding) where the
/// container puts one, so the sixteen overloads are written once.
protocol WireJSONPrimitiveEncoding {
    /// Places `node` where this container writes its next value.
    func put(_ node: WireJSONNode)
    /// Writes a value that encodes itself (or that Foundation writes specially).
    func encodeValue<T: Encodable>(_ value: T) throws
}

extension WireJSONPrimitiveEncoding {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { try encodeValue(value) }
    mutating func encode(_ value: Float) throws { try encodeValue(value) }
    mutating func encode(_ value: Int) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) throws { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) throws { put(.signed(value)) }
    mutating func encode(_ value: UInt) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { put(.unsigned(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}
