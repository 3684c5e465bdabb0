/// One act to charge.
public struct ChargeRequest: Sendable, Equatable {
    public var key: String
    /// Seconds of audio, for per-minute prices.
    public var seconds: Int64?
    /// How many items, or how many things moved.
    public var quantity: Int64?
    /// What it was for (a note, a vault).
    public var subject: String?
    /// The act happened by itself, not at the user's asking (a note opening as a recording stops): never charged.
    public var automatic: Bool

    public init(
        _ key: String, seconds: Int64? = nil, quantity: Int64? = nil, subject: String? = nil,
        automatic: Bool = false
    ) {
        self.key = key
        self.seconds = seconds
        self.quantity = quantity
        self.subject = subject
        self.automatic = automatic
    }
}

/// What charging an act did.
public enum ChargeOutcome: Sendable, Equatable {
    /// Charged: the entry written.
    case charged(LedgerEntry)
    /// Not charged, and why (nothing moved, already charged in this session, opened by itself).
    case notCharged(String)

    public var entry: LedgerEntry? {
        if case .charged(let entry) = self { return entry }
        return nil
    }
}

/// Why an act cannot be charged at all.
public enum ChargeError: Error, Equatable, CustomStringConvertible {
    /// The act is never charged (recording, ...): the sentence says so.
    case neverCharged(act: String, message: String)
    /// No such key in the price list.
    case unknownKey(String, known: [String])
    /// The request does not fit the price (a transcript without seconds, too many files, ...).
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .neverCharged(_, let message): return message
        case .unknownKey(let key, let known):
            return "there is no price for \"\(key)\"; the keys are: \(known.joined(separator: ", "))"
        case .invalidRequest(let message): return message
        }
    }
}

/// Charges acts against a price list into a ledger. Below zero nothing is blocked: a charge never fails for lack
/// of credit. One meter is one app session (while the app is open), for acts charged once per subject a session.
public final class Meter {
    public let ledger: Ledger
    public let prices: any PriceList
    private let ids: any IDSource
    private var chargedThisSession: Set<String> = []

    public init(ledger: Ledger, prices: any PriceList, ids: any IDSource = RandomIDs()) {
        self.ledger = ledger
        self.prices = prices
        self.ids = ids
    }

    /// What `request` would cost, or nil with the reason when it costs nothing. Throws when it cannot be charged.
    public func price(of request: ChargeRequest) throws -> (amount: MicroCredits, quantity: Int64, item: PriceItem)? {
        if let message = prices.neverCharged[request.key] {
            throw ChargeError.neverCharged(act: request.key, message: message)
        }
        guard let item = prices.item(for: request.key) else {
            throw ChargeError.unknownKey(request.key, known: prices.items.map(\.key))
        }
        let quantity: Int64
        switch item.unit {
        case .each:
            if let given = request.quantity, given != 1 {
                throw ChargeError.invalidRequest("\(item.key) is charged once per act; --quantity does not apply")
            }
            quantity = 1
        case .perStartedMinute:
            guard let seconds = request.seconds else {
                throw ChargeError.invalidRequest(
                    "\(item.key) is priced by the minute: say how long the audio is (--seconds)")
            }
            guard seconds > 0 else { throw ChargeError.invalidRequest("\(item.key): --seconds must be above zero") }
            quantity = (seconds + 59) / 60
        case .perItem(let maximum):
            let count = request.quantity ?? 1
            guard count >= 1, count <= Int64(maximum) else {
                throw ChargeError.invalidRequest("\(item.key) is charged per item, from 1 to \(maximum); got \(count)")
            }
            quantity = count
        case .whenSomethingMoved:
            guard let moved = request.quantity, moved >= 0 else {
                throw ChargeError.invalidRequest(
                    "\(item.key) is charged only when something moved: say how many things moved (--quantity, 0 or more)"
                )
            }
            if moved == 0 { return nil }
            quantity = moved
        }
        if request.automatic && !item.freeWhenAutomatic {
            throw ChargeError.invalidRequest(
                "\(item.key) does not happen by itself; --auto-open applies to a note opening as a recording stops")
        }
        if request.seconds != nil, item.unit != .perStartedMinute {
            throw ChargeError.invalidRequest("\(item.key) is not priced by the minute; --seconds does not apply")
        }
        let amount = item.unit == .whenSomethingMoved ? item.price : try item.price.multiplied(by: quantity)
        return (amount, quantity, item)
    }

    /// Charges `request` now: the act has been done. Returns what was written, or why nothing was.
    @discardableResult
    public func charge(_ request: ChargeRequest) throws -> ChargeOutcome {
        guard let priced = try price(of: request) else {
            return .notCharged("nothing moved, so nothing was charged")
        }
        if request.automatic {
            return .notCharged("it opened by itself, so it was not charged")
        }
        let sessionKey = request.key + "\u{0}" + (request.subject ?? "")
        if priced.item.oncePerSubjectPerSession && chargedThisSession.contains(sessionKey) {
            return .notCharged("already charged once while the app is open")
        }
        let draft = EntryDraft(
            id: ids.makeID(), kind: .charge, feature: priced.item.key, subject: request.subject,
            quantity: priced.quantity, amount: try priced.amount.negated())
        let entry = try ledger.append(draft).entry
        if priced.item.oncePerSubjectPerSession { chargedThisSession.insert(sessionKey) }
        return .charged(entry)
    }

    /// Does `work`, then charges `request` only if the work succeeded: something that fails costs nothing.
    /// The request is checked before the work starts, so a bad request does no work.
    public func perform<T>(_ request: ChargeRequest, work: () throws -> T) throws -> (result: T, charge: ChargeOutcome)
    {
        _ = try price(of: request)
        let result = try work()
        return (result, try charge(request))
    }
}
