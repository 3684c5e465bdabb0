import CreditLedger
import Signing

extension AccountSummary {
    /// The summary of one account's `entries` (distinct by id), a section per device that wrote them, costed with
    /// `costs` in the units of `prices`, signed with the account's head key. A device's head is the highest sequence
    /// of its entries in `entries`, or in `heads` (by device id) when that is higher: the last entry of a device's file
    /// may be a copy of an id counted from another device, and is covered all the same.
    public static func make(
        entries: some Sequence<LedgerEntry>, exportedAt: Timestamp, prices: some PriceList, costs: some CostList,
        headKey: P256PrivateKey, heads: [String: Int64] = [:]
    ) throws -> AccountSummary {
        let table = CostTable(costs: costs, prices: prices)
        var builders: [String: SectionRows] = [:]
        for entry in entries {
            try builders[entry.device, default: SectionRows()].add(entry, costs: table)
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
        try summary.sign(with: headKey)
        return summary
    }

    /// The summary of `ledger` (its distinct entries, each device's head its file's last sequence here), signed with
    /// `keys`' head key: what `credit export --summary` writes.
    public static func make(
        ledger: Ledger, keys: LedgerKeys, exportedAt: Timestamp, prices: some PriceList, costs: some CostList
    ) throws -> AccountSummary {
        var heads: [String: Int64] = [:]
        for entry in ledger.entries { heads[entry.device] = max(heads[entry.device] ?? 0, entry.sequence) }
        return try make(
            entries: ledger.distinctEntriesUnordered, exportedAt: exportedAt, prices: prices, costs: costs,
            headKey: keys.headKey, heads: heads)
    }
}

/// The rows of one device's section as its entries are added.
private struct SectionRows {
    private var days: [DayKey: SummaryDay] = [:]
    private var declines: [ReasonKey: SummaryDecline] = [:]
    private(set) var head: Int64 = 0

    mutating func add(_ entry: LedgerEntry, costs table: CostTable) throws {
        head = max(head, entry.sequence)
        guard let feature = entry.feature, entry.kind == .charge || entry.kind == .refund else { return }
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

    func section(device: String, head: Int64) -> SummaryDevice {
        SummaryDevice(
            device: device, head: head, days: days.values.sorted { ($0.day, $0.feature) < ($1.day, $1.feature) },
            declines: declines.values.sorted { ($0.day, $0.feature, $0.reason) < ($1.day, $1.feature, $1.reason) })
    }
}

private struct DayKey: Hashable {
    var day: String
    var feature: String
}

private struct ReasonKey: Hashable {
    var day: DayKey
    var reason: String
}
