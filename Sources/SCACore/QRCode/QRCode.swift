/// A QR Code symbol (ISO/IEC 18004), encoded in byte mode.
///
/// Built for short payloads such as `otpauth://` URIs: the encoder picks the
/// smallest version (1...40) that holds the bytes at the requested error
/// correction level, lays out the function patterns, interleaves data and
/// Reed–Solomon codewords, and chooses the data mask with the lowest penalty.
/// The result is an immutable grid of dark/light modules; rendering lives in
/// `QRCode+SVG.swift`.
package struct QRCode: Sendable, Equatable {
    /// Error correction level; higher levels survive more damage but need a
    /// larger symbol for the same payload.
    package enum Correction: Sendable, Equatable, CaseIterable {
        case low, medium, quartile, high

        /// Two-bit indicator used in the format information (Table 12).
        /// Note the order is not monotonic: L=01, M=00, Q=11, H=10.
        var formatBits: Int {
            switch self {
            case .low: 0b01
            case .medium: 0b00
            case .quartile: 0b11
            case .high: 0b10
            }
        }

        /// Row index into the block tables below.
        var tableIndex: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }
    }

    package enum Error: Swift.Error, Sendable, Equatable {
        /// The payload does not fit in a version 40 symbol at this level.
        case tooLong
    }

    /// Width and height in modules (17 + 4 × version), without quiet zone.
    package let size: Int
    package let version: Int
    /// Data mask pattern 0...7 that was applied.
    package let mask: Int
    package let correction: Correction
    /// Row-major modules, `true` = dark.
    private let modules: [Bool]

    /// Whether the module at column `x`, row `y` (origin top left) is dark.
    package subscript(x: Int, y: Int) -> Bool {
        precondition(x >= 0 && x < size && y >= 0 && y < size, "module out of range")
        return modules[y * size + x]
    }

    package init(bytes: [UInt8], correction: Correction = .medium) throws {
        try self.init(bytes: bytes, correction: correction, version: nil, mask: nil)
    }

    /// Encodes with an optional forced version and/or mask. Forcing exists so
    /// tests can compare individual steps with a reference encoder; production
    /// code should let the encoder choose.
    package init(bytes: [UInt8], correction: Correction, version forcedVersion: Int?, mask forcedMask: Int?) throws {
        precondition(forcedMask.map { (0..<8).contains($0) } ?? true, "mask must be 0...7")
        precondition(forcedVersion.map { (1...40).contains($0) } ?? true, "version must be 1...40")

        let candidates = forcedVersion.map { [$0] } ?? Array(1...40)
        guard let version = candidates.first(where: {
            Self.dataBitsNeeded(byteCount: bytes.count, version: $0)
                <= Self.dataCodewordCount(version: $0, correction: correction) * 8
        }) else {
            throw Error.tooLong
        }

        let data = Self.dataCodewords(bytes, version: version, correction: correction)
        let codewords = Self.interleavedCodewords(data, version: version, correction: correction)

        var grid = Grid(version: version)
        grid.drawFunctionPatterns()
        grid.placeCodewords(codewords)

        // Try every mask and keep the first with the lowest penalty. Format and
        // version information are written only afterwards (ISO/IEC 18004:2015
        // §7.8: masking and its evaluation precede §7.9/§7.10), so their areas
        // are still light while scoring.
        let chosenMask = forcedMask ?? Self.lowestPenaltyMask(grid)
        grid = grid.masked(chosenMask)
        grid.drawFormatInformation(correction: correction, mask: chosenMask)
        grid.drawVersionInformation()

        self.version = version
        self.size = grid.size
        self.mask = chosenMask
        self.correction = correction
        self.modules = grid.dark
    }

    /// The first mask (0...7) whose masked symbol scores the lowest penalty.
    private static func lowestPenaltyMask(_ grid: Grid) -> Int {
        let penalties = (0..<8).map { grid.masked($0).penalty() }
        return penalties.indices.min { penalties[$0] < penalties[$1] }!
    }
}

// MARK: - Capacity and block structure

extension QRCode {
    /// Error correction codewords per block, indexed [level][version]
    /// (ISO/IEC 18004 Table 9). Index 0 is unused so versions index directly.
    private static let ecCodewordsPerBlock: [[Int]] = [
        // 1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19  20  21  22  23  24  25  26  27  28  29  30  31  32  33  34  35  36  37  38  39  40
        [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30], // L
        [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28], // M
        [0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30], // Q
        [0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30], // H
    ]

    /// Number of error correction blocks, indexed [level][version] (Table 9).
    /// Together with the total codeword count this fixes both block groups:
    /// blocks differ in length by at most one data codeword, shorter first.
    private static let blockCount: [[Int]] = [
        // 1  2  3  4  5  6  7  8  9 10  11  12  13  14  15  16  17  18  19  20  21  22  23  24  25  26  27  28  29  30  31  32  33  34  35  36  37  38  39  40
        [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25], // L
        [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49], // M
        [0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68], // Q
        [0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81], // H
    ]

    /// Modules left for codewords once every function pattern, the format
    /// information and (v7+) the version information are taken out.
    static func rawDataModules(version v: Int) -> Int {
        // Whole symbol minus finders, separators, timing and format areas.
        var modules = (16 * v + 128) * v + 64
        if v >= 2 {
            // n × n alignment patterns minus the three under finders, with
            // the modules they share with the timing patterns added back.
            let n = v / 7 + 2
            modules -= (25 * n - 10) * n - 55
            // Two 6×3 version information blocks.
            if v >= 7 { modules -= 36 }
        }
        return modules
    }

    /// Total codewords (data + EC). Leftover 0...7 modules are remainder bits.
    static func totalCodewordCount(version: Int) -> Int {
        rawDataModules(version: version) / 8
    }

    static func dataCodewordCount(version: Int, correction: Correction) -> Int {
        let row = correction.tableIndex
        return totalCodewordCount(version: version)
            - ecCodewordsPerBlock[row][version] * blockCount[row][version]
    }

    /// Bits for one byte-mode segment: mode indicator, character count, data.
    private static func dataBitsNeeded(byteCount: Int, version: Int) -> Int {
        4 + characterCountBits(version: version) + 8 * byteCount
    }

    /// Byte mode character count width grows for larger versions (Table 3).
    private static func characterCountBits(version: Int) -> Int {
        version <= 9 ? 8 : 16
    }

    /// Builds the data codewords: mode, count, payload, terminator, then the
    /// alternating pad codewords 0xEC 0x11 up to the capacity (§7.4).
    private static func dataCodewords(_ bytes: [UInt8], version: Int, correction: Correction) -> [UInt8] {
        let capacityBits = dataCodewordCount(version: version, correction: correction) * 8
        var bits: [Bool] = []
        func append(_ value: Int, width: Int) {
            for i in stride(from: width - 1, through: 0, by: -1) {
                bits.append((value >> i) & 1 == 1)
            }
        }
        append(0b0100, width: 4) // byte mode
        append(bytes.count, width: characterCountBits(version: version))
        for byte in bytes { append(Int(byte), width: 8) }
        append(0, width: min(4, capacityBits - bits.count)) // terminator, may be short
        append(0, width: (8 - bits.count % 8) % 8) // pad to a codeword boundary

        var codewords: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count * 8 < capacityBits {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Splits the data into blocks, appends each block's Reed–Solomon
    /// codewords, and interleaves: data column by column, then EC the same
    /// way (§7.6), so a burst of damage is spread over many blocks.
    private static func interleavedCodewords(_ data: [UInt8], version: Int, correction: Correction) -> [UInt8] {
        let row = correction.tableIndex
        let blocks = blockCount[row][version]
        let ecLength = ecCodewordsPerBlock[row][version]
        let total = totalCodewordCount(version: version)
        let shortBlocks = blocks - total % blocks
        let shortDataLength = total / blocks - ecLength

        var dataBlocks: [ArraySlice<UInt8>] = []
        var ecBlocks: [[UInt8]] = []
        var offset = 0
        for index in 0..<blocks {
            let length = shortDataLength + (index < shortBlocks ? 0 : 1)
            let block = data[offset..<offset + length]
            offset += length
            dataBlocks.append(block)
            ecBlocks.append(reedSolomon(Array(block), ecCount: ecLength))
        }

        var result: [UInt8] = []
        result.reserveCapacity(total)
        for i in 0...shortDataLength {
            for block in dataBlocks where i < block.count {
                result.append(block[block.startIndex + i])
            }
        }
        for i in 0..<ecLength {
            for block in ecBlocks { result.append(block[i]) }
        }
        return result
    }
}

// MARK: - Reed–Solomon and BCH codes

extension QRCode {
    /// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1 (0x11D).
    static func gfMultiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var product = 0
        for i in stride(from: 7, through: 0, by: -1) {
            product = (product << 1) ^ ((product >> 7) * 0x11D)
            if (b >> i) & 1 == 1 { product ^= Int(a) }
        }
        return UInt8(product)
    }

    /// Error correction codewords for one block: the remainder of
    /// data(x) · x^ecCount divided by the generator ∏ (x − α^i), i < ecCount.
    package static func reedSolomon(_ data: [UInt8], ecCount: Int) -> [UInt8] {
        // Generator coefficients, highest degree first, leading 1 omitted.
        var generator = [UInt8](repeating: 0, count: ecCount)
        generator[ecCount - 1] = 1
        var root: UInt8 = 1 // α^i
        for _ in 0..<ecCount {
            // Multiply the polynomial by (x − α^i); in GF(2^8) minus is XOR.
            for j in 0..<ecCount {
                generator[j] = gfMultiply(generator[j], root)
                if j + 1 < ecCount { generator[j] ^= generator[j + 1] }
            }
            root = gfMultiply(root, 0x02)
        }

        // Polynomial long division, keeping only the running remainder.
        var remainder = [UInt8](repeating: 0, count: ecCount)
        for byte in data {
            let factor = byte ^ remainder.removeFirst()
            remainder.append(0)
            for j in 0..<ecCount {
                remainder[j] ^= gfMultiply(generator[j], factor)
            }
        }
        return remainder
    }

    /// 15-bit format information: level and mask protected by a (15,5) BCH
    /// code, XORed with 0x5412 so it is never all light (§7.9.1).
    package static func formatBits(correction: Correction, mask: Int) -> Int {
        let data = correction.formatBits << 3 | mask
        return (data << 10 | bchRemainder(data, generator: 0x537, degree: 10)) ^ 0x5412
    }

    /// 18-bit version information: version protected by an (18,6) BCH code
    /// with generator 0x1F25 (§7.10, Annex D).
    package static func versionBits(version: Int) -> Int {
        version << 12 | bchRemainder(version, generator: 0x1F25, degree: 12)
    }

    private static func bchRemainder(_ data: Int, generator: Int, degree: Int) -> Int {
        var remainder = data << degree
        for bit in stride(from: degree + 5, through: degree, by: -1) where (remainder >> bit) & 1 == 1 {
            remainder ^= generator << (bit - degree)
        }
        return remainder
    }
}

// MARK: - Module grid

extension QRCode {
    /// Mutable working matrix used while building a symbol.
    struct Grid {
        let version: Int
        let size: Int
        var dark: [Bool]
        /// Function modules (patterns, reserved format/version areas) are
        /// never overwritten by data and never masked.
        var isFunction: [Bool]

        init(version: Int) {
            self.version = version
            self.size = 17 + 4 * version
            self.dark = Array(repeating: false, count: size * size)
            self.isFunction = Array(repeating: false, count: size * size)
        }

        subscript(x: Int, y: Int) -> Bool { dark[y * size + x] }

        private mutating func setFunction(_ x: Int, _ y: Int, _ isDark: Bool) {
            dark[y * size + x] = isDark
            isFunction[y * size + x] = true
        }

        /// Marks a module as function without changing its colour (it keeps
        /// the timing bit where row/column 6 crosses the format area).
        private mutating func reserve(_ x: Int, _ y: Int) {
            isFunction[y * size + x] = true
        }

        /// Alignment pattern centre coordinates (Annex E). Evenly spaced from
        /// the far edge back towards 6, spacing rounded up to an even number.
        static func alignmentPositions(version: Int) -> [Int] {
            guard version > 1 else { return [] }
            let count = version / 7 + 2
            let size = 17 + 4 * version
            let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
            return [6] + (0..<count - 1).reversed().map { size - 7 - $0 * step }
        }

        mutating func drawFunctionPatterns() {
            // Timing patterns: alternating modules on row 6 and column 6.
            for i in 0..<size {
                setFunction(6, i, i % 2 == 0)
                setFunction(i, 6, i % 2 == 0)
            }
            // Finder patterns with their light separators (a 9×9 area clipped
            // at the symbol edge): dark rings at distance 0, 1 and 3.
            for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
                for dy in -4...4 {
                    for dx in -4...4 where (0..<size).contains(cx + dx) && (0..<size).contains(cy + dy) {
                        let ring = max(abs(dx), abs(dy))
                        setFunction(cx + dx, cy + dy, ring != 2 && ring != 4)
                    }
                }
            }
            // Alignment patterns on every grid crossing except the three
            // that would overlap a finder pattern.
            let positions = Self.alignmentPositions(version: version)
            for (i, cx) in positions.enumerated() {
                for (j, cy) in positions.enumerated() {
                    let last = positions.count - 1
                    if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                    for dy in -2...2 {
                        for dx in -2...2 {
                            setFunction(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1)
                        }
                    }
                }
            }
            // Reserve (light for now) the format areas, including the spot of
            // the always-dark module, and the version areas; they are filled
            // in after mask selection.
            for i in 0..<9 {
                reserve(8, i)
                reserve(i, 8)
            }
            for i in 0..<8 {
                reserve(size - 1 - i, 8)
                reserve(8, size - 1 - i)
            }
            if version >= 7 {
                for i in 0..<18 {
                    reserve(size - 11 + i % 3, i / 3)
                    reserve(i / 3, size - 11 + i % 3)
                }
            }
        }

        /// Places the codeword bits (most significant first) in two-module
        /// wide columns, zig-zagging up and down from the bottom right and
        /// skipping function modules and the vertical timing column (§7.7.3).
        /// Remainder bits stay light.
        mutating func placeCodewords(_ codewords: [UInt8]) {
            var bitIndex = 0
            var right = size - 1
            while right >= 1 {
                if right == 6 { right = 5 }
                let upward = (right + 1) & 2 == 0
                for step in 0..<size {
                    let y = upward ? size - 1 - step : step
                    for x in [right, right - 1] where !isFunction[y * size + x] {
                        guard bitIndex < codewords.count * 8 else { continue }
                        dark[y * size + x] = (codewords[bitIndex / 8] >> (7 - bitIndex % 8)) & 1 == 1
                        bitIndex += 1
                    }
                }
                right -= 2
            }
        }

        /// Data mask conditions (Table 10), with i = row and j = column.
        static func maskCondition(_ mask: Int, i: Int, j: Int) -> Bool {
            switch mask {
            case 0: (i + j) % 2 == 0
            case 1: i % 2 == 0
            case 2: j % 3 == 0
            case 3: (i + j) % 3 == 0
            case 4: (i / 2 + j / 3) % 2 == 0
            case 5: (i * j) % 2 + (i * j) % 3 == 0
            case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
            default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
            }
        }

        /// A copy with the mask applied to every non-function module.
        func masked(_ mask: Int) -> Grid {
            var copy = self
            for y in 0..<size {
                for x in 0..<size where !isFunction[y * size + x] && Self.maskCondition(mask, i: y, j: x) {
                    copy.dark[y * size + x].toggle()
                }
            }
            return copy
        }

        mutating func drawFormatInformation(correction: Correction, mask: Int) {
            let bits = QRCode.formatBits(correction: correction, mask: mask)
            func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
            // Copy 1 around the top-left finder, stepping over the timing
            // pattern: bits 0-7 down column 8, bits 8-14 leftwards on row 8.
            for i in 0..<6 { setFunction(8, i, bit(i)) }
            setFunction(8, 7, bit(6))
            setFunction(8, 8, bit(7))
            setFunction(7, 8, bit(8))
            for i in 9..<15 { setFunction(14 - i, 8, bit(i)) }
            // Copy 2 split between the top-right and bottom-left finders.
            for i in 0..<8 { setFunction(size - 1 - i, 8, bit(i)) }
            for i in 8..<15 { setFunction(8, size - 15 + i, bit(i)) }
            // The module above the bottom-left copy is always dark.
            setFunction(8, size - 8, true)
        }

        /// Two 6×3 copies, least significant bit first, for versions ≥ 7.
        mutating func drawVersionInformation() {
            guard version >= 7 else { return }
            let bits = QRCode.versionBits(version: version)
            for i in 0..<18 {
                let isDark = (bits >> i) & 1 == 1
                setFunction(size - 11 + i % 3, i / 3, isDark) // top right
                setFunction(i / 3, size - 11 + i % 3, isDark) // bottom left
            }
        }

        /// Penalty score of §7.8.3.1 (Table 11); lower is easier to scan.
        func penalty() -> Int {
            var score = 0
            // N1 (runs) and N3 (finder-like patterns) along rows and columns.
            for i in 0..<size {
                score += Self.linePenalty((0..<size).map { self[$0, i] })
                score += Self.linePenalty((0..<size).map { self[i, $0] })
            }
            // N2: 3 points per 2×2 block of one colour (overlaps counted).
            for y in 0..<size - 1 {
                for x in 0..<size - 1 {
                    let c = self[x, y]
                    if c == self[x + 1, y] && c == self[x, y + 1] && c == self[x + 1, y + 1] { score += 3 }
                }
            }
            // N4: 10 points per full 5% step the dark share is away from 50%.
            let darkCount = dark.reduce(0) { $0 + ($1 ? 1 : 0) }
            let total = size * size
            score += 10 * (abs(darkCount * 20 - total * 10) / total)
            return score
        }

        private static let finderLike: [Bool] = [true, false, true, true, true, false, true]

        private static func linePenalty(_ line: [Bool]) -> Int {
            var score = 0
            // N1: a run of 5 + k same-colour modules costs 3 + k.
            var run = 1
            for i in 1..<line.count {
                if line[i] == line[i - 1] {
                    run += 1
                } else {
                    if run >= 5 { score += run - 2 }
                    run = 1
                }
            }
            if run >= 5 { score += run - 2 }
            // N3: 1:1:3:1:1 dark:light:dark:light:dark with 4 light modules
            // before or after it (the area outside the symbol counts as light,
            // it is quiet zone) costs 40 per occurrence. Every start position
            // is checked, so overlapping occurrences each count.
            for start in 0...(line.count - 7) where line[start..<start + 7].elementsEqual(finderLike) {
                let before = line[max(0, start - 4)..<start]
                let after = line[(start + 7)..<min(line.count, start + 11)]
                if !before.contains(true) || !after.contains(true) { score += 40 }
            }
            return score
        }
    }
}
