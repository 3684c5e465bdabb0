import Foundation
import MockStoreHTTP
import StoreKitCatalogue
import StoreWire

/// What StoreKit does on a phone, under `/storekit/v1/`, and the sandbox's root certificate.
enum DeviceRoutes: RouteTable {
    static let routes: [Route] = deviceRoutes + sandboxRoutes

    /// What StoreKit does on a phone, under `/storekit/v1/`.
    static let deviceRoutes: [Route] = [
        Route(DeviceAPI.products) { store, _, query in
            let ids = productIds(query.ids)
            do throws(MockStoreError) {
                return HTTPResponse(
                    status: 200, headers: [HTTPHeader("Content-Type", HTTPResponse.jsonContentType)],
                    body: try store.catalogue.productsBody(ids: ids))
            } catch {
                return error.response
            }
        },
        Route(DeviceAPI.purchase) { store, request, _ in
            do throws(MockStoreError) {
                let device = try device(request)
                return purchaseAnswer(
                    try store.purchases.purchase(
                        try decode(PurchaseRequestBody.self, from: request.body), device: device))
            } catch {
                return error.response
            }
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
        route(DeviceAPI.storefront) { store, _, _ in try store.settings.currentStorefront() },
    ]

    /// The answer to a purchase: a paid one (what nearly every purchase gets) written straight, byte for byte as
    /// `JSONEncoder` writes it (sorted keys, nothing to escape in a JWS), since the encoder's check of every
    /// character of the signed transaction was the dearest part of answering; any other answer is encoded.
    static func purchaseAnswer(_ body: PurchaseResponseBody) -> HTTPResponse {
        let isPlain = { (byte: UInt8) in
            (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        guard body.result == .success, body.pendingReason == nil, body.transactionId == nil,
            let jws = body.signedTransaction, jws.utf8.allSatisfy(isPlain)
        else { return .json(body) }
        var bytes = Array(#"{"result":"success","signedTransaction":""#.utf8)
        bytes.reserveCapacity(bytes.count + jws.utf8.count + 2)
        bytes.append(contentsOf: jws.utf8)
        bytes.append(contentsOf: #""}"#.utf8)
        return HTTPResponse(
            status: 200, headers: [HTTPHeader("Content-Type", HTTPResponse.jsonContentType)], body: bytes)
    }

    /// The product ids a products request asks for: `ids=A,B`, and also `ids=A&ids=B`; blanks (`.whitespaces`)
    /// around an id are trimmed and empty ids ignored.
    static func productIds(_ values: [String]) -> [String] {
        values.flatMap { value -> [String] in
            guard value.utf8.allSatisfy({ $0 < 0x80 }) else {
                return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                }
            }
            // ASCII (every id a catalogue has): the same split and trim on bytes, whose only blanks are the space
            // and the tab. Foundation's trimming (through NSString) was a third of the handler's time.
            let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            return value.utf8.split(separator: UInt8(ascii: ",")).compactMap { part in
                guard let first = part.firstIndex(where: { !isBlank($0) }),
                    let last = part.lastIndex(where: { !isBlank($0) })
                else { return nil }
                return String(Substring(part[first...last]))
            }
        }
    }

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
