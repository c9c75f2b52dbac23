import Mustache
import SCALocalization

/// The catalogue as templates read it: `{{t.signin.email.label}}` is the entry
/// `signin.email.label` in the page's language. Mustache splits a dotted name and asks each
/// part of the one before, so a node is a key prefix and renders as the entry of that key.
///
/// Only entries without placeholders are read this way; a text with values is filled in Swift
/// and handed to the template as a value of its own.
struct CatalogueNode: MustacheParent, MustacheCustomRenderable, Sendable {
    let localizer: Localizer
    let key: String

    func child(named name: String) -> Any? {
        CatalogueNode(localizer: localizer, key: key.isEmpty ? name : "\(key).\(name)")
    }

    var renderText: String { localizer.text(key) }
    var isNull: Bool { false }
}
