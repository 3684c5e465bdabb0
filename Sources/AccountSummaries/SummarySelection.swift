/// Which part of which summary counts: for every account and device, the section with the highest head (then the
/// latest `exportedAt`, then the signature, then the file name, so the choice never depends on the order files are
/// read). A v1 summary is one section of the whole account, and counts only for an account with no v2 or v3 summary.
/// `analytics/pnl.sql` (its `latest` statement) chooses the same way.
struct SummarySelection {
    /// One section chosen, with the summary and file it is from.
    struct Chosen {
        var file: String
        var summary: AccountSummary
        var section: SummaryDevice

        fileprivate var order: (Int64, String, String, String) {
            (section.head, summary.exportedAt, summary.signature, file)
        }
    }

    /// The sections that count, by account, then device.
    private(set) var chosen: [Chosen] = []
    /// The files verified of which no section counts: every entry they cover is covered by a later section.
    private(set) var superseded: [String] = []

    init(_ verified: [(file: String, summary: AccountSummary)]) {
        let accountsWithDevices = Set(verified.filter { !$0.summary.coversWholeAccount }.map(\.summary.account))
        var best: [SectionKey: Chosen] = [:]
        for (file, summary) in verified {
            // A v1 summary cannot be combined with a device's section: it may hold that device's entries too.
            if summary.coversWholeAccount && accountsWithDevices.contains(summary.account) { continue }
            for section in summary.sections {
                let candidate = Chosen(file: file, summary: summary, section: section)
                let key = SectionKey(account: summary.account, device: section.device)
                if let kept = best[key], !(kept.order < candidate.order) { continue }
                best[key] = candidate
            }
        }
        chosen = best.values.sorted {
            ($0.summary.account, $0.section.device) < ($1.summary.account, $1.section.device)
        }
        let counted = Set(chosen.map(\.file))
        superseded = verified.map(\.file).filter { !counted.contains($0) }.sorted()
    }

    /// The chosen sections account by account, in account order.
    var byAccount: [[Chosen]] {
        var groups: [[Chosen]] = []
        for item in chosen {
            if let last = groups.last?.last, last.summary.account == item.summary.account {
                groups[groups.count - 1].append(item)
            } else {
                groups.append([item])
            }
        }
        return groups
    }
}

private struct SectionKey: Hashable {
    var account: String
    var device: String
}
