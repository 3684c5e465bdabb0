/// The characters every output of the project shows as their code rather than as themselves, so that text from data
/// can neither act on a terminal nor reorder or hide the words around it: the controls (C0 but tab and line feed,
/// DEL, C1), the line and paragraph separators, and every format character (the bidirectional marks, embeddings,
/// overrides and isolates, the zero-width space, the byte-order mark, tags) but the zero-width joiner and
/// non-joiner, which emoji and some scripts need and which reorder nothing.
public enum HiddenCharacter {
    /// Whether `scalar` is shown as its code (tab and line feed are not: each output says how it shows them).
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x200C, 0x200D: return false
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
        case 0x20...0x7E: return false
        default: return scalar.properties.generalCategory == .format
        }
    }

    /// `scalar` as its code, the one form every output shows it in: `[U+202E]`, four hex digits at least.
    public static func code(of scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "[U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "]"
    }
}
