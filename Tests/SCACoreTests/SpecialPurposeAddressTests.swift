import SCACore
import Testing

/// The special-purpose ranges of the IANA IPv4 and IPv6 registries, and the shorthand forms a
/// resolver accepts, classified without resolving anything (webhook SSRF filter).
struct SpecialPurposeAddressTests {
    typealias Kind = SpecialPurposeAddress.Kind

    @Test(
        "special-purpose IP literals are classified by their range",
        arguments: [
            ("0.0.0.0", Kind.unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified), ("[::]", .unspecified),
            ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("::1", .loopback), ("[::1]", .loopback),
            ("localhost", .loopback), ("LOCALHOST", .loopback), ("api.localhost", .loopback),
            ("127.1", .loopback), ("2130706433", .loopback), ("0x7f.1", .loopback), ("0177.0.0.1", .loopback),
            ("10.0.0.1", .privateUse), ("172.16.0.1", .privateUse), ("172.31.255.255", .privateUse),
            ("192.168.1.1", .privateUse),
            ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("[fe80::1%25eth0]", .linkLocal), ("febf::1", .linkLocal),
            ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal), ("fec0::1", .uniqueLocal),
            ("100.64.0.1", .sharedAddressSpace), ("100.127.255.255", .sharedAddressSpace),
            ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("ff02::1", .multicast),
            ("192.0.2.1", .documentation), ("198.51.100.7", .documentation), ("203.0.113.9", .documentation),
            ("2001:db8::1", .documentation),
            ("198.18.0.1", .benchmarking), ("198.19.255.255", .benchmarking),
            ("192.0.0.8", .reserved), ("240.0.0.1", .reserved), ("255.255.255.255", .reserved), ("100::1", .reserved),
            ("2001::1", .reserved), ("::10.0.0.1", .reserved),
            // IPv4 inside IPv6: the IPv4 address decides.
            ("::ffff:127.0.0.1", .loopback), ("[::ffff:10.1.2.3]", .privateUse), ("::ffff:a9fe:a9fe", .linkLocal),
            ("64:ff9b::192.168.0.1", .privateUse),
            // Other spellings of the same addresses.
            ("127.0.0.1.", .loopback), ("localhost.", .loopback), ("0x7f.0.0.1.", .loopback), ("0177.1", .loopback),
            ("0.0.0.0.", .unspecified), ("0", .unspecified), ("[::ffff:127.0.0.1]", .loopback), ("::ffff:7f00:1", .loopback),
            ("::127.0.0.1", .reserved), ("::ffff:0:a9fe:a9fe", .linkLocal), ("::ffff:0:8.8.8.8", .reserved),
            ("2002:a9fe:a9fe::", .linkLocal), ("[2002:7f00:1::1]", .loopback), ("2002:0a00:0001::", .privateUse),
            ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::7f00:1", .loopback), ("64:ff9b:1::8.8.8.8", .reserved),
        ] as [(String, Kind)])
    func specialPurpose(host: String, kind: Kind) {
        #expect(SpecialPurposeAddress.kind(ofHost: host) == kind)
    }

    @Test(
        "public addresses, edges just outside the ranges, and host names are not classified",
        arguments: [
            "93.184.216.34", "8.8.8.8", "1.1.1.1", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0",
            "126.255.255.255", "128.0.0.0", "169.253.255.255", "172.15.255.255", "172.32.0.0", "192.167.255.255",
            "192.169.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255", "192.0.3.1",
            "2606:4700::1111", "2a00:1450:4007::1", "2001:200::1", "fbff::1", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8",
            "2002:808:808::1", "8.8.8.8.",
            "shop.example", "hooks.bank.example", "localhost.example", "x10.0.0.1", "",
        ])
    func notSpecial(host: String) {
        #expect(SpecialPurposeAddress.kind(ofHost: host) == nil)
    }

    @Test("one decision: public is exactly what has no kind")
    func publicIsNoKind() {
        #expect(SpecialPurposeAddress.isPublic([93, 184, 216, 34]))
        #expect(SpecialPurposeAddress.isPublic(SpecialPurposeAddress.literal("2002:5db8:d822::")!))
        for host in ["169.254.169.254", "2002:a9fe:a9fe::", "64:ff9b::a9fe:a9fe", "::ffff:169.254.169.254", "::", "0.0.0.0"] {
            #expect(!SpecialPurposeAddress.isPublic(SpecialPurposeAddress.literal(host)!), "\(host)")
        }
    }

    @Test("literals parse to 4 or 16 bytes; names and garbage do not")
    func literals() {
        #expect(SpecialPurposeAddress.literal("203.0.113.9") == [203, 0, 113, 9])
        #expect(SpecialPurposeAddress.literal("[::1]")?.count == 16)
        #expect(SpecialPurposeAddress.literal("shop.example") == nil)
        #expect(SpecialPurposeAddress.literal("1.2.3.4.5") == nil)
        #expect(SpecialPurposeAddress.literal(":::") == nil)
        #expect(SpecialPurposeAddress.kind(of: [1, 2, 3]) == .reserved)
    }
}
