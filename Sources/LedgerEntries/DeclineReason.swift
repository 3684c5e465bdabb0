/// Why a user declined a charge.
public enum DeclineReason: Sendable, Equatable {
    /// The result was not usable.
    case notUsable
    /// I did not need it.
    case notNeeded
    /// It was a test.
    case test
    /// Another reason, in the user's words.
    case other(String)

    /// The key written in the ledger.
    public var key: String {
        switch self {
        case .notUsable: return "not-usable"
        case .notNeeded: return "not-needed"
        case .test: return "test"
        case .other: return "other"
        }
    }

    /// The user's words, for `other`.
    public var text: String? {
        if case .other(let words) = self { return words }
        return nil
    }

    /// Words for people.
    public var label: String {
        switch self {
        case .notUsable: return "the result was not usable"
        case .notNeeded: return "I did not need it"
        case .test: return "it was a test"
        case .other(let words): return words
        }
    }

    /// Reads a reason key (`not-usable`, `not-needed`, `test`, `other`); `other` needs `text`.
    public init(key: String, text: String?) throws {
        switch key {
        case "not-usable": self = .notUsable
        case "not-needed": self = .notNeeded
        case "test": self = .test
        case "other":
            guard let text, !Whitespace.trimmed(text).isEmpty else {
                throw LedgerError.invalid("the reason `other` needs the user's words (--text)")
            }
            self = .other(text)
        default:
            throw LedgerError.invalid("unknown reason \"\(key)\": use not-usable, not-needed, test or other")
        }
    }
}
