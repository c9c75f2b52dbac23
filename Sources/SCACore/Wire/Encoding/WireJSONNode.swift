import Foundation

/// One value of the tree ``WireJSONEncoder`` builds before writing it out.
enum WireJSONNode {
    /// A place reserved for a value not written yet; written out as `{}`, as Foundation writes
    /// a nested value that encoded nothing.
    case pending
    case null
    case bool(Bool)
    case string(String)
    case signed(Int64)
    case unsigned(UInt64)
    /// A date within the years Foundation writes in the proleptic Gregorian calendar with four
    /// digits: whole seconds since 1970, already rounded down.
    case date(seconds: Int64)
    /// Bytes Foundation produced for this one value (numbers with a fraction, and the rare types
    /// whose formatting is not repeated here).
    case raw([UInt8])
    case container(WireJSONContainer)
}
