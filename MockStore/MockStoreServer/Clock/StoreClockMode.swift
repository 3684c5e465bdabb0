/// Which clock the store's dates come from (`mockstore --clock`).
public enum StoreClockMode: Equatable, Sendable {
    /// The virtual clock (the default): a test moves it (`clock advance`) or speeds it up (`clock rate`), and periods
    /// last virtual days (``VirtualClock``, ``SubscriptionTiming``).
    case virtual
    /// Apple's sandbox clock: dates are the wall clock's, periods last what Apple's sandbox table gives them at the
    /// rate, and a subscription renews at most ``SandboxRenewalRate/renewalLimit`` times after its purchase.
    case sandbox(SandboxRenewalRate)

    /// The sandbox's rate, under the sandbox clock.
    public var sandboxRate: SandboxRenewalRate? {
        if case .sandbox(let rate) = self { return rate }
        return nil
    }
}
