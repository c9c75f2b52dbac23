import SCAEngine
/// What the layout puts around a page: the bank's frame, or the demo partner's, which must
/// never pass for the bank's.
struct PageFrame: Sendable {
    var brand: String
    var footer: String
    /// A class on `<body>` for the frame's colours.
    var bodyClass: String?

    static let bank = PageFrame(
        brand: "Secure sign-in", footer: "Never share a code with anyone, including the application that sent you here.")

    /// The layout's values.
    func values(title: String, content: String) -> [String: Any] {
        var values: [String: Any] = ["title": title, "content": content, "brand": brand, "footer": footer]
        if let bodyClass { values["bodyClass"] = bodyClass }
        return values
    }
}
