/// A record decoded from a stored row, once for every backend. A backend turns its row into a
/// `ColumnReader` and asks the record to read itself; it never names a record's columns when
/// reading.
package protocol ColumnDecodable {
    init(columns: some ColumnReader) throws
}
