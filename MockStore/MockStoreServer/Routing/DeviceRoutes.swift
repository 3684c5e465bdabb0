import Foundation
import MockStoreHTTP
import StoreKitCatalogue
import StoreWire

/// What StoreKit does on a phone, under `/storekit/v1/`, and the sandbox's root certificate.
enum DeviceRoutes: RouteTable {
    static let routes: [Route] = deviceRoutes + sandboxRoutes

    /// What StoreKit does on a phone, under `/storekit/v1/`.
    static let deviceRoutes: [Route] = [
        Route(DeviceAPI.products) { store, request, _ in
            // `ids=A,B`, and also `ids=A&ids=B`; blanks between commas are ignored.
            let ids = request.queryValues("ids").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            do throws(MockStoreError) {
                return HTTPResponse(
                    status: 200, headers: [HTTPHeader("Content-Type", HTTPResponse.jsonContentType)],
                    body: try store.catalogue.productsBody(ids: ids))
            } catch {
                return error.response
            }
        },
        route(DeviceAPI.purchase) { store, request, _ in
            let device = try device(request)
            return try store.purchases.purchase(
                try decode(PurchaseRequestBody.self, from: request.body), device: device)
        },
        route(DeviceAPI.purchaseStatus) { store, _, path in
            try store.purchases.purchaseStatus(transactionId: path.transactionId)
        },
        route(DeviceAPI.unfinished) { store, request, _ in
            SignedTransactionsBody(
                signedTransactions: try store.purchases.unfinishedTransactions(device: try device(request)))
        },
        route(DeviceAPI.all) { store, request, query in
            SignedTransactionsBody(
                signedTransactions: try store.purchases.everyTransaction(
                    includingConsumableHistory: query.includeConsumableHistory,
                    device: try device(request)))
        },
        route(DeviceAPI.updates) { store, request, query in
            try store.purchases.updates(after: query.after, device: try device(request))
        },
        route(DeviceAPI.appTransaction) { store, request, _ in
            try store.purchases.deviceAppTransaction(device: try device(request))
        },
        route(DeviceAPI.finish) { store, _, path in
            try store.purchases.finish(transactionId: path.transactionId)
            return EmptyBody()
        },
    ]

    /// What SKTestSession does, under `/test/v1/`.
    static let sandboxRoutes: [Route] = [
        Route(SandboxAPI.rootCertificate) { store, _, _ in
            guard let der = store.rootCertificateDER else {
                return MockStoreError.noRootCertificate.response
            }
            return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/pkix-cert")], body: der)
        }
    ]
}
