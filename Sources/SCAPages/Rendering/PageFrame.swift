import SCAEngine

/// What the layout puts around a page: the bank's frame, or the demo partner's, which must
/// never pass for the bank's.
struct PageFrame: Sendable {
    /// The name in the header; nil is the bank's, from the catalogue (`page.brand`).
    var brand: String?
    /// The line under the card; nil is the bank's warning, from the catalogue (`page.footer`).
    var footer: String?
    /// A class on `<body>` for the frame's colours.
    var bodyClass: String?

    static let bank = PageFrame()

    /// The layout's values.
    func values(title: String, content: String, words: PageWords) -> [String: Any] {
        var values: [String: Any] = [
            "title": title, "content": content, "lang": words.language.tag, "t": words.catalogueNode,
            "brand": brand ?? words.text("page.brand"), "footer": footer ?? words.text("page.footer"),
        ]
        let links = words.switchLinks
        if !links.isEmpty {
            values["languages"] = links
            values["hasLanguages"] = true
        }
        if let bodyClass { values["bodyClass"] = bodyClass }
        return values
    }
}
