import MockStoreHTTP
import StoreTestControls
import StoreWire

/// The customers (`/test/v1/customers`), and which customer a request acts for.
enum CustomerRoutes: RouteTable {
    static let routes: [Route] = [
        route(TestControls.customers) { store, _, _ in try store.customers.list() },
        route(TestControls.addCustomer) { store, request, _ in
            try store.customers.addCustomer(try decode(TestCustomerRequest.self, from: request.body))
        },
        route(TestControls.removeCustomer) { store, _, path in
            try store.customers.removeCustomer(named: path.name)
            return EmptyBody()
        },
    ]

    /// The customer a request acts for (``CustomerScope``): the device API's is its `X-Mock-Customer` header or
    /// the default customer, and it sees no other customer's transaction; a test control's is the header's when
    /// there is one, else the customer of the transaction it names (the default customer when it names none); the
    /// Server API names none (it answers for the customer of the transaction it is given).
    ///
    /// - Throws: ``MockStoreError`` 400 for a header that cannot name a customer.
    static func customerName(for request: HTTPRequest, segments: [String]) throws(MockStoreError) -> String? {
        let header = request.header(MockCustomerHeader.name)
        if let header, !MockCustomerHeader.isValidName(header) { throw .invalidCustomerName(header) }
        switch segments.first {
        case "storekit": return header ?? MockCustomerHeader.defaultCustomer
        case "test": return header
        default: return nil
        }
    }
}
