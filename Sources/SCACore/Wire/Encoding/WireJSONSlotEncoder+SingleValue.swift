extension WireJSONSlotEncoder: SingleValueEncodingContainer {
    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { try encodeValue(value) }
    mutating func encode(_ value: Float) throws { try encodeValue(value) }
    mutating func encode(_ value: Int) throws { set(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.signed(value)) }
    mutating func encode(_ value: UInt) throws { set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { set(.unsigned(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}
