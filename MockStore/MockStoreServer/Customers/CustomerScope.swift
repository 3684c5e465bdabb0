/// The customer the request being answered names (`X-Mock-Customer`), for every call of the store made while
/// answering it: the router sets it around each device-API and test-control request, and
/// ``MockStore/withDatabase(durability:_:)`` acts for that customer. `nil`: the default customer. The Server API
/// names none: it answers for the customer of the transaction it is given.
public enum CustomerScope {
    /// The customer's name, as the request gave it.
    @TaskLocal public static var name: String?
}
