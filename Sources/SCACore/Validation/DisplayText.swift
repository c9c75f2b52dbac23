import Foundation

/// The one rule for every text a person is shown: a payee name in an SMS or on a confirmation
/// screen, a device name in a device list, a remittance reference, a role an operator sets,
/// and any binding message or operation display added later.
///
/// Such a text must look like what it is. A payee `"\u{202E}SAS EMCA"` reads "ACME SAS" on a
/// screen that honours the right-to-left override, and a name padded with zero-width or
/// invisible characters looks like another. So a display text is:
///
/// - normalised to NFC first (`"e\u{301}"` becomes `"é"`): the NFC form is what is stored,
///   digested and shown, so two spellings of one name cannot give two digests;
/// - 1 to `maxLength` characters as the user sees them (grapheme clusters of the NFC form);
/// - free of control characters (Cc), format characters (Cf: the bidirectional embeddings,
///   overrides and isolates U+202A–202E and U+2066–2069, the marks U+200E/U+200F/U+061C,
///   zero-width spaces and joiners, soft hyphens, the byte-order mark, tags), line and paragraph
///   separators (Zl, Zp), private-use (Co) and unassigned (Cn, noncharacters included) code
///   points, and other default-ignorable code points that render as nothing (Hangul fillers,
///   the combining grapheme joiner); variation selectors stay, since `❤️` needs one;
/// - spaced with U+0020 only (no no-break, thin, ideographic or other odd spaces), never at its
///   start or end;
/// - without a combining mark at its start (it would attach to the text before it) and without
///   a character of more than ``maxScalarsPerCharacter`` code points (stacked marks that spill
///   over neighbouring lines).
///
/// Joined emoji sequences (`👩‍💻`) and scripts that need U+200C/U+200D are refused as a
/// consequence: an invisible joiner can also make two names that look alike differ. Look-alike
/// letters of different scripts (a Cyrillic `А` in `ACME`) are not detected here.
package enum DisplayText {
    /// SEPA's limit for a creditor name.
    package static let maxPayeeNameLength = 70
    /// SEPA's limit for unstructured remittance information.
    package static let maxReferenceLength = 140
    /// A device's name as shown in the user's device list.
    package static let maxDeviceNameLength = 64
    /// A device's platform (`iOS`, `Linux`), shown next to its name.
    package static let maxPlatformLength = 32
    /// A role name an operator sets on a user.
    package static let maxRoleLength = 64
    /// Code points one visible character may carry: a letter with its marks, an emoji with its
    /// skin tone and variation selector, a flag, an Indic conjunct.
    package static let maxScalarsPerCharacter = 8

    /// The NFC form of `text`, or why it cannot be shown.
    ///
    /// - Parameters:
    ///   - text: as received.
    ///   - field: the field's name as the client sent it (`payee.name`), used in the reason.
    ///   - maxLength: the most characters the user may see.
    /// - Returns: the text to store, digest and show, or the reason, which names `field`.
    package static func normalized(
        _ text: String, field: String, maxLength: Int
    ) -> Result<String, DisplayTextViolation> {
        let normalized = text.precomposedStringWithCanonicalMapping
        guard !normalized.isEmpty, normalized.count <= maxLength else {
            return .failure(.init(field: field, reason: "\(field) must be 1 to \(maxLength) characters"))
        }
        for scalar in normalized.unicodeScalars {
            if let kind = refusedKind(scalar) {
                return .failure(
                    .init(
                        field: field,
                        reason: "\(field) must not contain \(codePoint(scalar)) (\(kind)): text shown to a user is refused "
                            + "with control, format, bidirectional, invisible, separator, private-use or unassigned characters"))
            }
        }
        if normalized.first == " " || normalized.last == " " {
            return .failure(.init(field: field, reason: "\(field) must not start or end with a space"))
        }
        if let first = normalized.unicodeScalars.first, isMark(first) {
            return .failure(.init(field: field, reason: "\(field) must not start with a combining mark"))
        }
        if normalized.contains(where: { $0.unicodeScalars.count > maxScalarsPerCharacter }) {
            return .failure(
                .init(
                    field: field,
                    reason: "\(field) must not have a character of more than \(maxScalarsPerCharacter) code points"))
        }
        return .success(normalized)
    }

    /// Whether `text` is a display text as it stands: already NFC and accepted by
    /// ``normalized(_:field:maxLength:)``.
    package static func isAcceptable(_ text: String, maxLength: Int) -> Bool {
        // Scalar by scalar: `==` on strings would call a decomposed text equal to its NFC form.
        guard let accepted = try? normalized(text, field: "text", maxLength: maxLength).get() else { return false }
        return accepted.unicodeScalars.elementsEqual(text.unicodeScalars)
    }

    /// `text` with every code point this rule refuses written out as `<U+202E>`, for showing a
    /// text that did not pass through the rule (stored before it, or from elsewhere) on a
    /// terminal or log line without letting it reorder or hide what surrounds it.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if refusedKind(scalar) != nil {
                result += "<\(codePoint(scalar))>"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// What is wrong with one code point, or nil when it may be shown.
    static func refusedKind(_ scalar: Unicode.Scalar) -> String? {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control: return "a control character"
        case .format: return "a format character"
        case .lineSeparator, .paragraphSeparator: return "a line or paragraph separator"
        case .privateUse: return "a private-use character"
        case .unassigned, .surrogate: return "an unassigned code point"
        case .spaceSeparator where scalar != " ": return "a space other than U+0020"
        default: break
        }
        if properties.isDefaultIgnorableCodePoint && !isVariationSelector(scalar) {
            return "an invisible character"
        }
        return nil
    }

    private static func isVariationSelector(_ scalar: Unicode.Scalar) -> Bool {
        (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value)
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// `U+202E`.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// Why a display text was refused; `reason` names the field.
package struct DisplayTextViolation: Error, Sendable, Equatable {
    /// The field as the client sent it, e.g. `payee.name`.
    package var field: String
    /// One sentence for the client, starting with the field's name.
    package var reason: String

    package init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }
}
