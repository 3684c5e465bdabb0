extension SubscriptionRuntime {
    /// The lifecycle with the periods of the time rate in force now (Apple's sandbox's, and its renewal limit,
    /// under the sandbox clock).
    var timedLifecycle: SubscriptionLifecycle {
        var timed = lifecycle
        if let sandboxRate {
            timed.timing = SubscriptionTiming(sandboxRate: sandboxRate)
            timed.renewalLimit = SandboxRenewalRate.renewalLimit
        } else {
            timed.timing = SubscriptionTiming(rate: clock.rate, shortestPeriodDays: clock.shortestPeriodDays)
        }
        return timed
    }
}
