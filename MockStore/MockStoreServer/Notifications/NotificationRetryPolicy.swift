/// When a notification the receiver did not take (anything but HTTP 200) is sent again: Apple's schedule
/// (1, 12, 24, 48 and 72 hours after the previous try) with "an hour" scaled down to `baseMilliseconds`, and at
/// most `maxAttempts` tries in all (Apple: the first and five retries).
public struct NotificationRetryPolicy: Equatable, Sendable {
    /// Apple's retry delays, in hours after the previous attempt.
    public static let appleScheduleHours: [Int64] = [1, 12, 24, 48, 72]

    /// What one of Apple's hours lasts here (default one second).
    public var baseMilliseconds: Int64
    /// Tries in all, the first included (1 to 6).
    public var maxAttempts: Int
    /// How long one try waits for the receiver's answer.
    public var timeoutMilliseconds: Int64

    public init(baseMilliseconds: Int64 = 1_000, maxAttempts: Int = 6, timeoutMilliseconds: Int64 = 5_000) {
        self.baseMilliseconds = baseMilliseconds
        self.maxAttempts = maxAttempts
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The wait before the next try after `attempts` failed tries, or `nil` when there are no tries left.
    public func delay(afterFailedAttempts attempts: Int) -> Int64? {
        guard attempts >= 1, attempts < maxAttempts else { return nil }
        let hours = Self.appleScheduleHours[min(attempts - 1, Self.appleScheduleHours.count - 1)]
        return baseMilliseconds * hours
    }
}
