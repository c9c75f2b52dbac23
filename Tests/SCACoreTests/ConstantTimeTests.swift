import Testing
import SCACore

@Suite("ConstantTime")
struct ConstantTimeTests {
    @Test("equal and unequal contents, lengths and collection types")
    func equals() {
        #expect(ConstantTime.equals([UInt8](), [UInt8]()))
        #expect(ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
        #expect(!ConstantTime.equals([0, 2, 3] as [UInt8], [1, 2, 3] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2, 3] as [UInt8], [1, 2] as [UInt8]))
        #expect(ConstantTime.equals("123456".utf8, [0x31, 0x32, 0x33, 0x34, 0x35, 0x36] as [UInt8]))
        #expect(ConstantTime.equals(([9, 1, 2] as [UInt8]).dropFirst(), [1, 2] as [UInt8]))
    }
}
