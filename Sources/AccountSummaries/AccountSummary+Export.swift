import LedgerEntries
import LedgerMoney
import Signing

extension AccountSummary {
    /// The summary of one account's `entries` (distinct by id), a section per device that wrote them, costed with
    /// `costs` in the units of `prices`, its top-ups and refund steps priced under `money` from their signed
    /// transactions, signed with the account's head key. A device's head is the highest sequence
    /// of its entries in `entries`, or in `heads` (by device id) when that is higher: the last entry of a device's file
    /// may be a copy of an id counted from another device, and is covered all the same.
    public static func make(
        entries: some Sequence<LedgerEntry>, exportedAt: Timestamp, prices: some PriceList, costs: some CostList,
        money settings: any MoneySettings = UnstatedMoneySettings(), headKey: P256PrivateKey,
        heads: [String: Int64] = [:]
    ) throws -> AccountSummary {
        let entries = Array(entries)
        let table = CostTable(costs: costs, prices: prices)
        let reader = MoneyReader(entries: entries, settings: settings)
        var builders: [String: SectionRows] = [:]
        for entry in entries {
            try builders[entry.device, default: SectionRows()].add(entry, costs: table, money: reader)
        }
        let publicKey = headKey.publicKey
        let devices = builders.map { id, rows in
            rows.section(
                device: SummaryDevice.pseudonym(of: id, publicKey: publicKey), head: max(rows.head, heads[id] ?? 0))
        }
        var summary = AccountSummary(
            account: accountID(for: publicKey), exportedAt: exportedAt.iso8601,
            publicKey: Base64URL.encode(publicKey.derRepresentation), costsArePlaceholders: table.hasPlaceholders,
            devices: devices.sorted { $0.device < $1.device })
        summary.commission = settings.commission
        summary.moneyArePlaceholders = settings.isPlaceholder
        try summary.sign(with: headKey)
        return summary
    }

    /// The summary of `ledger` (its distinct entries, each device's head its file's last sequence here), signed with
    /// `keys`' head key: what `credit export --summary` writes.
    public static func make(
        ledger: Ledger, keys: LedgerKeys, exportedAt: Timestamp, prices: some PriceList, costs: some CostList,
        money: any MoneySettings = UnstatedMoneySettings()
    ) throws -> AccountSummary {
        var heads: [String: Int64] = [:]
        for entry in ledger.entries { heads[entry.device] = max(heads[entry.device] ?? 0, entry.sequence) }
        return try make(
            entries: ledger.distinctEntriesUnordered, exportedAt: exportedAt, prices: prices, costs: costs,
            money: money, headKey: keys.headKey, heads: heads)
    }
}

/// The rows of one device's section as its entries are added.
private struct SectionRows {
    private var days: [DayKey: SummaryDay] = [:]
    private var declines: [ReasonKey: SummaryDecline] = [:]
    private var credit: [CreditKey: SummaryCredit] = [:]
    private var money: [MoneyKey: SummaryMoney] = [:]
    private(set) var head: Int64 = 0

    mutating func add(_ entry: LedgerEntry, costs table: CostTable, money reader: MoneyReader) throws {
        head = max(head, entry.sequence)
        guard let feature = entry.feature, entry.kind == .charge || entry.kind == .refund else {
            try addMoney(entry, reader.money(of: entry))
            return
        }
        let day = String(entry.time.iso8601.prefix(10))
        let key = DayKey(day: day, feature: feature)
        var row =
            days[key]
            ?? SummaryDay(day: day, feature: feature, charges: 0, charged: 0, declined: 0, givenBack: 0, cost: 0)
        if entry.kind == .charge {
            row.charges += 1
            row.charged = try MicroCredits(row.charged).subtracting(entry.amount).rawValue
            row.cost = try MicroCredits(row.cost).adding(table.cost(of: feature, quantity: entry.quantity)).rawValue
        } else {
            row.declined += 1
            row.givenBack = try MicroCredits(row.givenBack).adding(entry.amount).rawValue
            let reasonKey = ReasonKey(day: key, reason: entry.reason ?? "other")
            var decline =
                declines[reasonKey]
                ?? SummaryDecline(day: day, feature: feature, reason: reasonKey.reason, count: 0, givenBack: 0)
            decline.count += 1
            decline.givenBack = try MicroCredits(decline.givenBack).adding(entry.amount).rawValue
            declines[reasonKey] = decline
        }
        days[key] = row
    }

    /// Adds an entry's credit, and the money of a sale or refund step, to the day's rows.
    private mutating func addMoney(_ entry: LedgerEntry, _ worth: EntryMoney) throws {
        let day = String(entry.time.iso8601.prefix(10))
        let parts: (CreditKind, Int64, MoneyKind?, MoneyLine?)
        switch worth {
        case .use: return
        case .opening(let amount): parts = (.givenFree, amount, nil, nil)
        case .simulated(let amount): parts = (.noMoneyTaken, amount, nil, nil)
        case .sale(let amount, let line): parts = (.sold, amount, .sale, line)
        case .refund(let amount, let line): parts = (.takenBack, amount, .refund, line)
        case .reinstatement(let amount, let line): parts = (.reinstated, amount, .reinstatement, line)
        }
        let creditKey = CreditKey(day: day, kind: parts.0.rawValue)
        var row = credit[creditKey] ?? SummaryCredit(day: day, kind: creditKey.kind, count: 0, amount: 0)
        row.count += 1
        row.amount = try MicroCredits(row.amount).adding(MicroCredits(parts.1)).rawValue
        credit[creditKey] = row
        guard let kind = parts.2, let line = parts.3 else { return }
        let key = MoneyKey(day: day, kind: kind.rawValue, currency: line.currency, storefront: line.storefront)
        var sums =
            money[key]
            ?? SummaryMoney(
                day: day, kind: key.kind, currency: line.currency, storefront: line.storefront,
                taxKnown: line.taxKnown, count: 0, gross: 0, tax: 0, commission: 0, proceeds: 0)
        sums.count += 1
        sums.gross = try MicroCredits(sums.gross).adding(MicroCredits(line.split.gross)).rawValue
        sums.tax = try MicroCredits(sums.tax).adding(MicroCredits(line.split.tax)).rawValue
        sums.commission = try MicroCredits(sums.commission).adding(MicroCredits(line.split.commission)).rawValue
        sums.proceeds = try MicroCredits(sums.proceeds).adding(MicroCredits(line.split.proceeds)).rawValue
        money[key] = sums
    }

    func section(device: String, head: Int64) -> SummaryDevice {
        SummaryDevice(
            device: device, head: head, days: days.values.sorted { ($0.day, $0.feature) < ($1.day, $1.feature) },
            declines: declines.values.sorted { ($0.day, $0.feature, $0.reason) < ($1.day, $1.feature, $1.reason) },
            credit: credit.values.sorted { ($0.day, $0.kind) < ($1.day, $1.kind) },
            money: money.values.sorted {
                ($0.day, $0.kind, $0.currency, $0.storefront) < ($1.day, $1.kind, $1.currency, $1.storefront)
            })
    }
}

private struct CreditKey: Hashable {
    var day: String
    var kind: String
}

/// A storefront's tax is known or not for every row of it (the settings are one table), so it is not in the key.
private struct MoneyKey: Hashable {
    var day: String
    var kind: String
    var currency: String
    var storefront: String
}

private struct DayKey: Hashable {
    var day: String
    var feature: String
}

private struct ReasonKey: Hashable {
    var day: DayKey
    var reason: String
}
