/// A store's failure as words that stand alone: a whole sentence (`… Nothing was bought.` follows it), or a clause
/// to sit inside another sentence's parentheses. Made here, beside ``StoreError/description``: the words of a case
/// with no words from outside are closed by a full stop; a case that carries words from outside (the store's own
/// message, a transport's detail, which may end as a question does) is closed by them when they end a sentence.
extension StoreError {
    /// The failure as a whole sentence: `the store said: No such transaction.`, `cannot reach the store: nothing
    /// answers at 127.0.0.1:1; is the store running?`.
    public var sentence: String {
        guard let outside = wordsFromOutside, let last = outside.last, Self.sentenceEnds.contains(last) else {
            return description + "."
        }
        return description
    }

    /// The failure as a clause, without the full stop the words from outside may end with: `(the store said: No
    /// such transaction)`.
    public var clause: String {
        guard let outside = wordsFromOutside, outside.last == "." else { return description }
        return String(description.dropLast())
    }

    /// Why the store could not be reached, as a clause: a network failure's own detail (what a person can check),
    /// else the whole failure.
    public var reasonClause: String {
        guard case .networkError(let detail) = self else { return clause }
        return detail.last == "." ? String(detail.dropLast()) : detail
    }

    /// What ends a sentence.
    private static let sentenceEnds: Set<Character> = [".", "?", "!"]

    /// The words this case carries from outside (and ends its description with), if any.
    private var wordsFromOutside: String? {
        switch self {
        case .networkError(let words), .noAnswer(let words), .systemError(let words), .unknown(let words),
            .productUnavailable(let words), .refused(let words):
            return words
        case .storeResponse(_, _, let message): return message
        case .answerTooSlow: return unansweredDetail
        case .answerTooLarge, .historyDidNotEnd, .historyDidNotMoveOn, .notAvailableInStorefront, .notEntitled,
            .unsupported, .purchaseNotAllowed, .invalidQuantity, .simulated:
            return nil
        }
    }
}
