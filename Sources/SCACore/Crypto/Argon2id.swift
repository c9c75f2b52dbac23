/// Argon2id (RFC 9106), version 0x13: the memory-hard function behind `$argon2id$` PHC strings.
///
/// Written here because swift-crypto does not offer it. The lanes are filled one after the
/// other on the calling thread, which gives the same tag as a parallel fill: within one slice
/// no lane reads the segment another lane is writing.
package enum Argon2id {
    /// The only version computed: 0x13 (19), the `v=19` of PHC strings. Version 0x10 does not
    /// XOR the passes after the first into memory and is not accepted.
    static let version = 0x13

    /// Argon2's type number for Argon2id, hashed into H0 and into the address blocks.
    private static let type: UInt64 = 2
    /// One memory block: 1024 bytes, 128 words.
    private static let blockWordCount = 128
    /// Slices per pass: the points where lanes synchronise.
    private static let sliceCount = 4

    /// The tag of RFC 9106 §3, with no limit beyond the RFC's own: callers bound the cost.
    ///
    /// - Parameters:
    ///   - password: P, hashed as given (no normalisation).
    ///   - salt: S.
    ///   - secret: K, empty when there is none (PHC strings carry none).
    ///   - associatedData: X, empty when there is none.
    ///   - memoryKiB: m, at least 8 × `parallelism`; the memory used is m rounded down to a
    ///     multiple of 4 × `parallelism` blocks of 1 KiB.
    ///   - iterations: t, at least 1.
    ///   - parallelism: p, the number of lanes, at least 1.
    ///   - tagByteCount: T, at least 4.
    package static func hash(
        password: [UInt8], salt: [UInt8], secret: [UInt8] = [], associatedData: [UInt8] = [],
        memoryKiB: Int, iterations: Int, parallelism: Int, tagByteCount: Int
    ) -> [UInt8] {
        precondition(parallelism >= 1 && iterations >= 1 && tagByteCount >= 4, "Argon2 parameters below RFC 9106's minimums")
        precondition(memoryKiB >= 8 * parallelism, "Argon2 needs at least 8 KiB per lane")

        var initial: [UInt8] = []
        for value in [parallelism, tagByteCount, memoryKiB, iterations, version, Int(type)] {
            initial += littleEndian32(value)
        }
        for field in [password, salt, secret, associatedData] {
            initial += littleEndian32(field.count) + field
        }
        let h0 = BLAKE2b.hash(initial, outputByteCount: 64)

        let segmentLength = memoryKiB / (sliceCount * parallelism)
        let geometry = Geometry(
            lanes: parallelism, laneLength: segmentLength * sliceCount, segmentLength: segmentLength,
            passes: iterations)
        var memory = [UInt64](repeating: 0, count: geometry.blockCount * blockWordCount)
        // Four blocks of scratch space, allocated once so that the filling loop allocates nothing.
        let scratch = UnsafeMutablePointer<UInt64>.allocate(capacity: 4 * blockWordCount)
        defer { scratch.deallocate() }

        memory.withUnsafeMutableBufferPointer { buffer in
            let memory = buffer.baseAddress!
            for lane in 0..<parallelism {
                for column in 0..<2 {
                    let block = variableLengthHash(h0 + littleEndian32(column) + littleEndian32(lane), outputByteCount: 1024)
                    let start = (lane * geometry.laneLength + column) * blockWordCount
                    for word in 0..<blockWordCount {
                        memory[start + word] = littleEndianWord(block, at: 8 * word)
                    }
                }
            }
            for pass in 0..<iterations {
                for slice in 0..<sliceCount {
                    for lane in 0..<parallelism {
                        fillSegment(memory, geometry, pass: pass, slice: slice, lane: lane, scratch: scratch)
                    }
                }
            }
        }

        // The tag hashes the XOR of every lane's last block.
        var final = [UInt64](repeating: 0, count: blockWordCount)
        for lane in 0..<parallelism {
            let start = (lane * geometry.laneLength + geometry.laneLength - 1) * blockWordCount
            for word in 0..<blockWordCount {
                final[word] ^= memory[start + word]
            }
        }
        var finalBytes: [UInt8] = []
        finalBytes.reserveCapacity(1024)
        for word in final {
            for byte in 0..<8 {
                finalBytes.append(UInt8(truncatingIfNeeded: word >> UInt64(8 * byte)))
            }
        }
        return variableLengthHash(finalBytes, outputByteCount: tagByteCount)
    }

    /// The shape of the memory, in blocks.
    private struct Geometry {
        let lanes: Int
        let laneLength: Int
        let segmentLength: Int
        let passes: Int
        var blockCount: Int { lanes * laneLength }
    }

    /// Fills one segment (RFC 9106 §3.4): each block compresses the previous one with a
    /// reference block chosen from the password-independent address stream in the first half
    /// of the first pass (Argon2i's resistance to side channels), from the previous block's
    /// content everywhere else (Argon2d's resistance to trade-off attacks).
    private static func fillSegment(
        _ memory: UnsafeMutablePointer<UInt64>, _ geometry: Geometry, pass: Int, slice: Int, lane: Int,
        scratch: UnsafeMutablePointer<UInt64>
    ) {
        let compressionScratch = scratch
        let zeroBlock = scratch + blockWordCount
        let inputBlock = scratch + 2 * blockWordCount
        let addressBlock = scratch + 3 * blockWordCount

        let independentAddressing = pass == 0 && slice < sliceCount / 2
        if independentAddressing {
            zeroBlock.update(repeating: 0, count: blockWordCount)
            inputBlock.update(repeating: 0, count: blockWordCount)
            inputBlock[0] = UInt64(pass)
            inputBlock[1] = UInt64(lane)
            inputBlock[2] = UInt64(slice)
            inputBlock[3] = UInt64(geometry.blockCount)
            inputBlock[4] = UInt64(geometry.passes)
            inputBlock[5] = type
        }
        // The next 128 addresses: G(0, G(0, input)) with the input's counter incremented.
        func nextAddresses() {
            inputBlock[6] &+= 1
            compress(zeroBlock, inputBlock, into: addressBlock, xoringOldContent: false, scratch: compressionScratch)
            compress(zeroBlock, addressBlock, into: addressBlock, xoringOldContent: false, scratch: compressionScratch)
        }

        // The first two blocks of each lane come from H0, not from compression.
        var firstIndex = 0
        if pass == 0 && slice == 0 {
            firstIndex = 2
            if independentAddressing { nextAddresses() }
        }
        var current = lane * geometry.laneLength + slice * geometry.segmentLength + firstIndex
        var previous = current % geometry.laneLength == 0 ? current + geometry.laneLength - 1 : current - 1

        for index in firstIndex..<geometry.segmentLength {
            // The block before a lane's first column is its last one; after that, the one before.
            if current % geometry.laneLength == 1 {
                previous = current - 1
            }
            let pseudoRandom: UInt64
            if independentAddressing {
                if index % blockWordCount == 0 { nextAddresses() }
                pseudoRandom = addressBlock[index % blockWordCount]
            } else {
                pseudoRandom = memory[previous * blockWordCount]
            }
            // The first slice of the first pass has only its own lane to refer to.
            let referenceLane = pass == 0 && slice == 0 ? lane : Int((pseudoRandom >> 32) % UInt64(geometry.lanes))
            let referenceColumn = referenceIndex(
                geometry, pass: pass, slice: slice, index: index, pseudoRandom: pseudoRandom & 0xFFFF_FFFF,
                sameLane: referenceLane == lane)
            let reference = referenceLane * geometry.laneLength + referenceColumn
            compress(
                memory + previous * blockWordCount, memory + reference * blockWordCount,
                into: memory + current * blockWordCount, xoringOldContent: pass > 0, scratch: compressionScratch)
            current += 1
            previous += 1
        }
    }

    /// The column of the reference block (RFC 9106 §3.4.2): a position in the blocks already
    /// finished that the current block may refer to, biased towards the most recent ones.
    private static func referenceIndex(
        _ geometry: Geometry, pass: Int, slice: Int, index: Int, pseudoRandom: UInt64, sameLane: Bool
    ) -> Int {
        // Blocks of the current segment are referable only in the current lane; the block just
        // before the current one is never referable (it is already an input).
        let areaSize: Int
        if pass == 0 {
            if slice == 0 {
                areaSize = index - 1
            } else if sameLane {
                areaSize = slice * geometry.segmentLength + index - 1
            } else {
                areaSize = slice * geometry.segmentLength + (index == 0 ? -1 : 0)
            }
        } else {
            if sameLane {
                areaSize = geometry.laneLength - geometry.segmentLength + index - 1
            } else {
                areaSize = geometry.laneLength - geometry.segmentLength + (index == 0 ? -1 : 0)
            }
        }
        let squared = (pseudoRandom &* pseudoRandom) >> 32
        let relative = UInt64(areaSize) - 1 - ((UInt64(areaSize) &* squared) >> 32)
        // From the second pass on, the area starts after the current segment and wraps around.
        let start = pass == 0 || slice == sliceCount - 1 ? 0 : (slice + 1) * geometry.segmentLength
        return (start + Int(relative)) % geometry.laneLength
    }

    /// The compression function G (RFC 9106 §3.5): `next` = P(x ⊕ y) ⊕ x ⊕ y, XORed into the
    /// old content of `next` from the second pass on (what version 0x13 changed).
    ///
    /// `y` may be `next` itself (address generation does that); `x` may not.
    @inline(__always)
    private static func compress(
        _ x: UnsafePointer<UInt64>, _ y: UnsafePointer<UInt64>, into next: UnsafeMutablePointer<UInt64>,
        xoringOldContent: Bool, scratch r: UnsafeMutablePointer<UInt64>
    ) {
        for word in 0..<blockWordCount {
            let value = x[word] ^ y[word]
            r[word] = value
            next[word] = xoringOldContent ? next[word] ^ value : value
        }
        // P on the eight rows of 16 words, then on the eight columns of 16 words.
        for row in 0..<8 {
            permute(r + 16 * row, pairStride: 2)
        }
        for column in 0..<8 {
            permute(r + 2 * column, pairStride: 16)
        }
        for word in 0..<blockWordCount {
            next[word] ^= r[word]
        }
    }

    /// The permutation P on 16 words, taken as eight pairs of adjacent words `pairStride`
    /// words apart: a row of the block with stride 2, a column with stride 16.
    @inline(__always)
    private static func permute(_ p: UnsafeMutablePointer<UInt64>, pairStride s: Int) {
        var v0 = p[0], v1 = p[1], v2 = p[s], v3 = p[s + 1]
        var v4 = p[2 * s], v5 = p[2 * s + 1], v6 = p[3 * s], v7 = p[3 * s + 1]
        var v8 = p[4 * s], v9 = p[4 * s + 1], v10 = p[5 * s], v11 = p[5 * s + 1]
        var v12 = p[6 * s], v13 = p[6 * s + 1], v14 = p[7 * s], v15 = p[7 * s + 1]
        mix(&v0, &v4, &v8, &v12)
        mix(&v1, &v5, &v9, &v13)
        mix(&v2, &v6, &v10, &v14)
        mix(&v3, &v7, &v11, &v15)
        mix(&v0, &v5, &v10, &v15)
        mix(&v1, &v6, &v11, &v12)
        mix(&v2, &v7, &v8, &v13)
        mix(&v3, &v4, &v9, &v14)
        p[0] = v0; p[1] = v1; p[s] = v2; p[s + 1] = v3
        p[2 * s] = v4; p[2 * s + 1] = v5; p[3 * s] = v6; p[3 * s + 1] = v7
        p[4 * s] = v8; p[4 * s + 1] = v9; p[5 * s] = v10; p[5 * s + 1] = v11
        p[6 * s] = v12; p[6 * s + 1] = v13; p[7 * s] = v14; p[7 * s + 1] = v15
    }

    /// BLAKE2b's G with each addition strengthened by twice the product of the low 32 bits
    /// (RFC 9106 §3.6), so that filling memory costs multiplications as well as additions.
    @inline(__always)
    private static func mix(_ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64) {
        a = a &+ b &+ 2 &* (a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF)
        d = BLAKE2b.rotateRight(d ^ a, 32)
        c = c &+ d &+ 2 &* (c & 0xFFFF_FFFF) &* (d & 0xFFFF_FFFF)
        b = BLAKE2b.rotateRight(b ^ c, 24)
        a = a &+ b &+ 2 &* (a & 0xFFFF_FFFF) &* (b & 0xFFFF_FFFF)
        d = BLAKE2b.rotateRight(d ^ a, 16)
        c = c &+ d &+ 2 &* (c & 0xFFFF_FFFF) &* (d & 0xFFFF_FFFF)
        b = BLAKE2b.rotateRight(b ^ c, 63)
    }

    /// H' (RFC 9106 §3.3): BLAKE2b stretched to any length by chaining 64-byte digests and
    /// keeping the first half of each.
    static func variableLengthHash(_ input: [UInt8], outputByteCount: Int) -> [UInt8] {
        let prefixed = littleEndian32(outputByteCount) + input
        if outputByteCount <= 64 {
            return BLAKE2b.hash(prefixed, outputByteCount: outputByteCount)
        }
        let wholeDigests = (outputByteCount + 31) / 32 - 2
        var digest = BLAKE2b.hash(prefixed, outputByteCount: 64)
        var output = Array(digest.prefix(32))
        output.reserveCapacity(outputByteCount)
        for _ in 1..<wholeDigests {
            digest = BLAKE2b.hash(digest, outputByteCount: 64)
            output += digest.prefix(32)
        }
        output += BLAKE2b.hash(digest, outputByteCount: outputByteCount - 32 * wholeDigests)
        return output
    }

    private static func littleEndian32(_ value: Int) -> [UInt8] {
        let value = UInt32(truncatingIfNeeded: value)
        return [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
    }

    private static func littleEndianWord(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for byte in 0..<8 {
            word |= UInt64(bytes[offset + byte]) << UInt64(8 * byte)
        }
        return word
    }
}
