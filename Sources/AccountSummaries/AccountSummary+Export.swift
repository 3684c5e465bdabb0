import CreditLedger
import Signing

extension AccountSummary {
    /// The summary of one account's `entries` (distinct by id), costed with `costs` in the units of `prices`, signed
    /// with the account's head key.
    public static func make(
        entries: some Sequence<LedgerEntry>, exportedAt: Timestamp, prices: some PriceList, costs: some CostList,
        headKey: P256PrivateKey
    ) throws -> AccountSummary {
        let table = CostTable(costs: costs, prices: prices)
        var days: [DayKey: SummaryDay] = [:]
        var declines: [ReasonKey: SummaryDecline] = [:]
        for entry in entries {
            guard let feature = entry.feature, entry.kind == .charge || entry.kind == .refund else { continue }
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
        var summary = AccountSummary(
            account: accountID(for: headKey.publicKey), exportedAt: exportedAt.iso8601,
            publicKey: Base64URL.encode(headKey.publicKey.derRepresentation),
            costsArePlaceholders: table.hasPlaceholders,
            days: days.values.sorted { ($0.day, $0.feature) < ($1.day, $1.feature) },
            declines: declines.values.sorted { ($0.day, $0.feature, $0.reason) < ($1.day, $1.feature, $1.reason) })
        try summary.sign(with: headKey)
        return summary
    }

    /// The summary of `ledger` (its distinct entries), signed with `keys`' head key: what `credit export --summary`
    /// writes.
    public static func make(
        ledger: Ledger, keys: LedgerKeys, exportedAt: Timestamp, prices: some PriceList, costs: some CostList
    ) throws -> AccountSummary {
        try make(
            entries: ledger.distinctEntriesUnordered, exportedAt: exportedAt, prices: prices, costs: costs,
            headKey: keys.headKey)
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
