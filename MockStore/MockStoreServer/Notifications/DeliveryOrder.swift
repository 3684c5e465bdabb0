/// Which due notifications may be sent together, so that notifications about one original transaction arrive in
/// the order they were made: one is sent only once every earlier one about the same original transaction has been
/// delivered or given up. A value: the dispatcher's queries feed it, and tests call it directly.
struct DeliveryOrder: Equatable, Sendable {
    /// A due notification: its row number (the order notifications were made in) and its original transaction's
    /// id (nil for one about no transaction, a TEST notification: it waits for nothing).
    struct Candidate: Equatable, Sendable {
        var id: Int64
        var key: String?
    }

    /// For each original transaction with a pending notification whose next try is later, the earliest such row.
    var waitingForRetry: [String: Int64]

    /// The rows of `due` (oldest first) that may go out now, at most `limit`: the first due one of each original
    /// transaction, unless an earlier one of it waits for a retry.
    func sendable(_ due: [Candidate], limit: Int) -> [Int64] {
        var taken: [Int64] = []
        var seen: Set<String> = []
        for candidate in due where taken.count < limit {
            guard let key = candidate.key else {
                taken.append(candidate.id)
                continue
            }
            guard seen.insert(key).inserted else { continue }
            if let waiting = waitingForRetry[key], waiting < candidate.id { continue }
            taken.append(candidate.id)
        }
        return taken
    }
}
