extension SubscriptionRuntime {
    /// The lifecycle with the periods of the time rate in force now.
    var timedLifecycle: SubscriptionLifecycle {
        var timed = lifecycle
        timed.timing = SubscriptionTiming(rate: clock.rate, shortestPeriodDays: clock.shortestPeriodDays)
        return timed
    }
}
