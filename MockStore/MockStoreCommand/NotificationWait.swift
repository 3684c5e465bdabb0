import Foundation
import MockStoreHTTP
import Platform
import StoreTestControls
import StoreWire

/// `mockstore control wait-notification --type TYPE [--subtype S] [--count N] [--timeout SECONDS]`: waits until the
/// store has recorded `count` notifications of the type (and subtype), then prints them as JSON
/// (`{"notifications": [...]}`, as `control notifications` lists them) and exits 0; at the timeout, exits 1 saying
/// what did arrive. For a test in any language: one command instead of a loop of its own.
public struct NotificationWait: Equatable, Sendable {
    public var type: NotificationType
    public var subtype: NotificationSubtype?
    public var count: Int
    public var timeout: TimeInterval

    /// A wait for `count` notifications of `type` (and `subtype`), as the command line names them.
    public init(type: String, subtype: String?, count: Int, timeout: TimeInterval) {
        self.type = NotificationType(rawValue: type)
        self.subtype = subtype.map(NotificationSubtype.init(rawValue:))
        self.count = count
        self.timeout = timeout
    }

    /// How often the store is asked: a notification is recorded with the change that makes it.
    static let interval: TimeInterval = 0.05

    /// Why `type` and `subtype` are not Apple's, or nil.
    static func problem(type: String, subtype: String?) -> String? {
        guard let subtypes = NotificationTypes.subtypesByType[NotificationType(rawValue: type)] else {
            return "\"\(type)\" is not a notification type (one of "
                + NotificationTypes.subtypesByType.keys.map(\.rawValue).sorted().joined(separator: ", ") + ")"
        }
        if let subtype, !subtypes.contains(NotificationSubtype(rawValue: subtype)) {
            let known = subtypes.isEmpty ? "it has none" : subtypes.map(\.rawValue).sorted().joined(separator: ", ")
            return "\"\(subtype)\" is not a subtype of \(type) (\(known))"
        }
        return nil
    }

    /// Polls `GET /test/v1/notifications` (every page) at `base` until enough have been recorded or the time is up.
    func run(base: String) -> ControlInvocation.Outcome {
        let deadline = Date().addingTimeInterval(timeout)
        var seen: [TestNotificationRecord] = []
        while true {
            switch fetch(base) {
            case .failure(let failed): return failed.outcome
            case .success(let all): seen = all
            }
            let matching = seen.filter(matches)
            if matching.count >= count { return printed(matching) }
            if Date() >= deadline { return timedOut(matching: matching.count, seen: seen) }
            usleep(useconds_t(Self.interval * 1_000_000))
        }
    }

    private func matches(_ record: TestNotificationRecord) -> Bool {
        record.notificationType == type && (subtype == nil || record.subtype == subtype)
    }

    private func fetch(_ base: String) -> Result<[TestNotificationRecord], FailedControl> {
        NotificationList.fetch(base: base)
    }

    private func printed(_ matching: [TestNotificationRecord]) -> ControlInvocation.Outcome {
        let body =
            (try? HTTPResponse.encode(TestNotificationsBody(notifications: Array(matching.prefix(count)))))
            ?? Array("{}".utf8)
        return ControlInvocation.Outcome(status: 0, stdout: ControlInvocation.pretty(body), stderr: "")
    }

    private func timedOut(matching: Int, seen: [TestNotificationRecord]) -> ControlInvocation.Outcome {
        let wanted = "\(type)\(subtype.map { " \($0)" } ?? "")"
        var kinds: [String: Int] = [:]
        for record in seen {
            kinds["\(record.notificationType)\(record.subtype.map { " \($0)" } ?? "")", default: 0] += 1
        }
        let arrived =
            kinds.isEmpty ? "none at all" : kinds.keys.sorted().map { "\(kinds[$0]!) \($0)" }.joined(separator: ", ")
        return ControlInvocation.Outcome(
            status: 1, stdout: "",
            stderr: "mockstore: error: waited \(TimeFormat.seconds(timeout)) for \(count) \(wanted) "
                + "notification\(count == 1 ? "" : "s"), and \(matching) came; the store recorded \(arrived)\n")
    }
}

/// A control that failed while waiting: its outcome, as an error of the poll.
struct FailedControl: Error {
    var outcome: ControlInvocation.Outcome
}

/// Seconds as people write them.
enum TimeFormat {
    static func seconds(_ value: TimeInterval) -> String {
        let whole = value.rounded() == value
        let text = whole ? String(Int(value)) : String(value)
        return text + (value == 1 ? " second" : " seconds")
    }
}
