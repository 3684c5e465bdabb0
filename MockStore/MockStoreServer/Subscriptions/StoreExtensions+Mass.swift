import Foundation
import MockStoreHTTP
import StoreWire

/// A mass renewal-date extension taken but not yet run: the request, and when it was taken on the virtual clock
/// and in real time.
struct PendingMassExtension: Codable, Sendable, Equatable {
    var request: MassExtendRenewalDateRequestBody
    /// Virtual milliseconds.
    var requestedAt: Int64
    /// Real milliseconds (the clock under the virtual one).
    var requestedReal: Int64
}

/// When mass extensions run. Apple takes a mass extension and processes it later (Get Status of Subscription
/// Renewal Date Extensions says `complete: false` until then); here it runs once an hour of virtual time or a
/// five seconds of real time have passed, whichever comes first (`clock advance PT1H` runs it at once).
extension StoreExtensions {
    /// Virtual time after which a mass extension runs.
    public static let massExtensionDelay: Int64 = 3_600_000
    /// Real time after which a mass extension runs whatever the clock's rate.
    public static let massExtensionRealDelay: Int64 = 5_000

    private static let pendingKey = "renewalExtensionsPending"

    func addPendingMassExtension(
        _ request: MassExtendRenewalDateRequestBody, at now: Int64, _ database: TransactionStore
    )
        throws
    {
        var pending = try pendingMassExtensions(database)
        pending.append(
            PendingMassExtension(
                request: request, requestedAt: now, requestedReal: virtualClock.base.currentMilliseconds()))
        try database.setSetting(Self.pendingKey, to: String(decoding: try HTTPResponse.encode(pending), as: UTF8.self))
    }

    private func pendingMassExtensions(_ database: TransactionStore) throws -> [PendingMassExtension] {
        guard let text = try database.setting(Self.pendingKey) else { return [] }
        return (try? JSONDecoder().decode([PendingMassExtension].self, from: Data(text.utf8))) ?? []
    }

    /// Runs every mass extension that fell due, in the order taken. Returns how many ran.
    @discardableResult
    func completeDueMassExtensions(_ database: TransactionStore) throws -> Int {
        let pending = try pendingMassExtensions(database)
        guard !pending.isEmpty else { return 0 }
        let now = nowMilliseconds
        let real = virtualClock.base.currentMilliseconds()
        let (due, waiting) = pending.reduce(into: ([PendingMassExtension](), [PendingMassExtension]())) {
            if now - $1.requestedAt >= Self.massExtensionDelay || real - $1.requestedReal >= Self.massExtensionRealDelay
            {
                $0.0.append($1)
            } else {
                $0.1.append($1)
            }
        }
        guard !due.isEmpty else { return 0 }
        _ = try subscriptions.runDueEvents(until: now, database)
        for each in due { try complete(each, at: now, database) }
        try database.setSetting(
            Self.pendingKey,
            to: waiting.isEmpty ? nil : String(decoding: try HTTPResponse.encode(waiting), as: UTF8.self))
        return due.count
    }

    /// Runs the mass extensions that fell due and sends their notifications (the timer's and the controls' call).
    public func completeDueMassExtensions() {
        let ran = (try? withDatabase { database in try completeDueMassExtensions(database) }) ?? 0
        if ran > 0 { notifications.due.ring() }
    }

    /// When the next mass extension waiting falls due on the virtual clock (an hour of it after it was taken, or the
    /// virtual time once five seconds of real time have passed, whichever comes first); nil when none waits. The
    /// store's timer waits until then, so the summary goes out though nobody asks for the status.
    public func nextMassExtensionDate() -> Int64? {
        guard let pending = try? withDatabase({ database in try pendingMassExtensions(database) }), !pending.isEmpty
        else { return nil }
        let real = virtualClock.base.currentMilliseconds()
        return pending.map { waiting in
            min(
                waiting.requestedAt + Self.massExtensionDelay,
                virtualClock.milliseconds(
                    afterRealMilliseconds: waiting.requestedReal + Self.massExtensionRealDelay - real))
        }.min()
    }
}
