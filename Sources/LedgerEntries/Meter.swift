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
    /// The request does not fit the price (a transcript without seconds, an option the key does not take, ...).
    case invalidRequest(String)
    /// A number given for `option` (`--seconds`, `--quantity`) is outside what `key` allows: `allowed`, the range
    /// (also the bound that keeps the amount within 64 bits). Nothing was charged.
    case outOfRange(key: String, option: String, value: Int64, allowed: ClosedRange<Int64>)

    /// Whether the mistake is in what was asked (a command line maps it to exit 64): every case but
    /// ``neverCharged(act:message:)``, which is an answer, not a mistake.
    public var isUsageError: Bool {
        if case .neverCharged = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .neverCharged(_, let message): return message
        case .unknownKey(let key, let known):
            return "there is no price for \"\(key)\"; the keys are: \(known.joined(separator: ", "))"
        case .invalidRequest(let message): return message
        case .outOfRange(let key, let option, let value, let allowed):
            return
                "\(key): \(option) \(value) is out of range; it must be from \(ChargeLimits.words(allowed.lowerBound)) "
                + "to \(ChargeLimits.words(allowed.upperBound)); nothing was charged"
        }
    }
}

/// The ranges the numbers of a charge request must be in, for a command's `--help` and its checks: seconds of audio
/// from 1 to 360,000 (a hundred hours); quantities by each pricing unit's rule (``PricingUnit/quantityRange``).
public enum ChargeLimits {
    /// `--seconds`: 1 s to a hundred hours.
    public static let seconds: ClosedRange<Int64> = 1...360_000
    /// `--quantity` of an act charged when something moved: how many things moved.
    public static let moved: ClosedRange<Int64> = 0...1_000_000

    /// `value` with thousands separated by commas: `360,000`.
    public static func words(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }
}

extension PricingUnit {
    /// The values `--quantity` may take, or nil when this unit takes no quantity (given, it is refused).
    public var quantityRange: ClosedRange<Int64>? {
        switch self {
        case .each, .perStartedMinute: return nil
        case .perItem(let maximum): return 1...Int64(max(1, maximum))
        case .whenSomethingMoved: return ChargeLimits.moved
        }
    }

    /// Whether this unit takes `--seconds` (``ChargeLimits/seconds``).
    public var takesSeconds: Bool { self == .perStartedMinute }

    /// The rule in words, for `--help`: `--seconds 1 to 360,000`, `--quantity 1 to 4`, or nothing.
    public var ruleDescription: String? {
        if takesSeconds {
            return "--seconds \(ChargeLimits.words(ChargeLimits.seconds.lowerBound)) to "
                + "\(ChargeLimits.words(ChargeLimits.seconds.upperBound))"
        }
        guard let range = quantityRange else { return nil }
        return "--quantity \(ChargeLimits.words(range.lowerBound)) to \(ChargeLimits.words(range.upperBound))"
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
        try Meter.price(of: request, in: prices)
    }

    /// What `request` would cost under `prices`, or nil when it costs nothing, without a ledger: a command checks a
    /// request with it before it opens anything. Every number is checked against its range first, and the amount
    /// is computed with checked arithmetic: no value traps.
    ///
    /// - Throws: ``ChargeError`` (``ChargeError/isUsageError`` says which are mistakes in the request).
    public static func price(of request: ChargeRequest, in prices: any PriceList) throws
        -> (amount: MicroCredits, quantity: Int64, item: PriceItem)?
    {
        if let message = prices.neverCharged[request.key] {
            throw ChargeError.neverCharged(act: request.key, message: message)
        }
        guard let item = prices.item(for: request.key) else {
            throw ChargeError.unknownKey(request.key, known: prices.items.map(\.key))
        }
        // An act charged once per subject needs its subject: without one, every note read would count as one note.
        if item.oncePerSubjectPerSession, (request.subject ?? "").isEmpty {
            throw ChargeError.invalidRequest(
                "\(item.key) needs --subject ID, what it is for (\(item.priceDescription))")
        }
        // An option the key does not take is refused for every key.
        if request.seconds != nil, !item.unit.takesSeconds {
            throw ChargeError.invalidRequest("\(item.key) is not priced by the minute; --seconds does not apply")
        }
        if request.quantity != nil, item.unit.quantityRange == nil {
            throw ChargeError.invalidRequest(
                item.unit.takesSeconds
                    ? "\(item.key) is priced by the minute of audio; --quantity does not apply (say --seconds)"
                    : "\(item.key) is charged once per act; --quantity does not apply")
        }
        let quantity: Int64
        switch item.unit {
        case .each:
            quantity = 1
        case .perStartedMinute:
            guard let seconds = request.seconds else {
                throw ChargeError.invalidRequest(
                    "\(item.key) is priced by the minute: say how long the audio is (--seconds)")
            }
            try check(seconds, in: ChargeLimits.seconds, key: item.key, option: "--seconds")
            quantity = (seconds + 59) / 60
        case .perItem:
            let count = request.quantity ?? 1
            try check(count, in: item.unit.quantityRange!, key: item.key, option: "--quantity")
            quantity = count
        case .whenSomethingMoved:
            guard let moved = request.quantity else {
                throw ChargeError.invalidRequest(
                    "\(item.key) is charged only when something moved: say how many things moved (--quantity, 0 or more)"
                )
            }
            try check(moved, in: ChargeLimits.moved, key: item.key, option: "--quantity")
            if moved == 0 { return nil }
            quantity = moved
        }
        if request.automatic && !item.freeWhenAutomatic {
            throw ChargeError.invalidRequest(
                "\(item.key) does not happen by itself; --auto-open applies to a note opening as a recording stops")
        }
        guard item.unit != .whenSomethingMoved else { return (item.price, quantity, item) }
        let (amount, overflow) = item.price.rawValue.multipliedReportingOverflow(by: quantity)
        if overflow {
            // Only a price list with a price near 2^63 gets here: the range then is what fits in 64 bits.
            let most = Int64(UInt64(Int64.max) / max(1, item.price.rawValue.magnitude))
            let minutes = item.unit.takesSeconds
            let (inSeconds, tooMany) = most.multipliedReportingOverflow(by: 60)
            throw ChargeError.outOfRange(
                key: item.key, option: minutes ? "--seconds" : "--quantity",
                value: minutes ? request.seconds ?? quantity : quantity,
                allowed: 1...max(1, minutes ? (tooMany ? Int64.max : inSeconds) : most))
        }
        return (MicroCredits(amount), quantity, item)
    }

    /// Throws ``ChargeError/outOfRange(key:option:value:allowed:)`` unless `value` is in `range`.
    private static func check(_ value: Int64, in range: ClosedRange<Int64>, key: String, option: String) throws {
        guard range.contains(value) else {
            throw ChargeError.outOfRange(key: key, option: option, value: value, allowed: range)
        }
    }

    /// Charges `request` now: the act has been done. Returns what was written, or why nothing was.
    @discardableResult
    public func charge(_ request: ChargeRequest) throws -> ChargeOutcome {
        guard let priced = try price(of: request) else {
            return .notCharged("nothing moved, so nothing was charged")
        }
        if request.automatic {
            return .notCharged("it opened by itself")
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
