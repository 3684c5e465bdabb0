import LedgerEntries
import LedgerMoney

/// One point of the balance over time.
public struct BalancePoint: Sendable, Equatable {
    public var time: Timestamp
    public var balance: MicroCredits

    public init(time: Timestamp, balance: MicroCredits) {
        self.time = time
        self.balance = balance
    }
}

/// A decline as the owner reads it: the user's own words and the subject are user-supplied (escaped on the page).
public struct DeclineNote: Sendable, Equatable {
    public var time: Timestamp
    public var feature: String
    public var reason: String
    public var text: String?
    public var subject: String?
}

/// What the owner's page shows: the P&L, and for one ledger the balance over time and the latest declines.
public struct PnLPageContent: Sendable {
    public var title: String
    public var report: ProfitAndLossReport
    /// Every change of the balance, oldest first (empty for summaries, which have no balance).
    public var balance: [BalancePoint]
    /// The latest declines, newest first.
    public var recentDeclines: [DeclineNote]
    /// Each feature key's name in the price list's words (``PriceList/featureNames``); a key not in it is shown as
    /// it is.
    public var featureNames: [String: String]
    /// What was counted, in words, under the headline (`3 accounts counted, from 4 summaries; …`).
    public var basis: String?

    /// The page of one ledger: `report` is its P&L, `entries` its distinct entries (in any order).
    public init(
        title: String = "Profit and loss", report: ProfitAndLossReport, entries: some Sequence<LedgerEntry>,
        featureNames: [String: String] = [:]
    ) throws {
        self.title = title
        self.report = report
        self.featureNames = featureNames
        basis = nil
        let ordered = entries.sorted { ($0.time, $0.device, $0.sequence) < ($1.time, $1.device, $1.sequence) }
        var running = MicroCredits.zero
        balance = try ordered.map { entry in
            running = try running.adding(entry.amount)
            return BalancePoint(time: entry.time, balance: running)
        }
        let subjects = Dictionary(ordered.map { ($0.id, $0.subject) }, uniquingKeysWith: { first, _ in first })
        recentDeclines = ordered.reversed().lazy.filter { $0.kind == .refund }.prefix(PnLPageContent.declinesShown)
            .map { entry in
                DeclineNote(
                    time: entry.time, feature: entry.feature ?? "", reason: entry.reason ?? "other", text: entry.text,
                    subject: entry.subject ?? entry.refersTo.flatMap { subjects[$0] ?? nil })
            }
    }

    /// The page of summaries totalled (no balance, no declines' words: a summary has neither); `basis` says what
    /// was counted.
    public init(
        title: String = "Profit and loss, all accounts", summaries report: ProfitAndLossReport,
        featureNames: [String: String] = [:], basis: String? = nil
    ) {
        self.title = title
        self.report = report
        self.featureNames = featureNames
        self.basis = basis
        balance = []
        recentDeclines = []
    }

    static let declinesShown = 10

    /// The feature's name in the price list's words, or its key when the list has none (`total`: `Total`).
    func name(of feature: String) -> String {
        feature == "total" ? "Total" : featureNames[feature] ?? feature
    }
}
