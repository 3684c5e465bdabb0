import Foundation
import MockStoreHTTP
import StoreWire

/// The App Store Server API subset, at Apple's paths: each request's bearer token is checked first, and a bad
/// one gets a 401 without a body, as Apple answers.
extension MockStoreRouter {
    static let serverRoutes: [Route] = [
        serverRoute("GET", ["inApps", "v1", "transactions", ":id"]) { store, _, captures in
            respond { try store.transactionInfo(id: captures["id"] ?? "") }
        },
        serverRoute("GET", ["inApps", "v1", "transactions", "appTransactions", ":id"]) { store, _, captures in
            respond { try store.appTransactionInfo(id: captures["id"] ?? "") }
        },
        serverRoute("PUT", ["inApps", "v1", "transactions", ":id", "appAccountToken"]) { store, request, captures in
            var response = accepted {
                try store.setAppAccountToken(
                    originalTransactionId: captures["id"] ?? "",
                    try decode(UpdateAppAccountTokenRequestBody.self, from: request.body))
            }
            if response.status == 202 { response.status = 200 }
            return response
        },
        serverRoute("POST", ["inApps", "v1", "notifications", "history"]) { store, request, _ in
            respond {
                try store.notificationHistory(
                    try decode(NotificationHistoryRequestBody.self, from: request.body),
                    paginationToken: request.queryValues("paginationToken").first)
            }
        },
        serverRoute("GET", ["inApps", "v1", "history", ":id"]) { store, request, captures in
            respond { try store.history(id: captures["id"] ?? "", version: "v1", query: request.query) }
        },
        serverRoute("GET", ["inApps", "v2", "history", ":id"]) { store, request, captures in
            respond { try store.history(id: captures["id"] ?? "", version: "v2", query: request.query) }
        },
        serverRoute("GET", ["inApps", "v2", "refund", "lookup", ":id"]) { store, request, captures in
            respond {
                try store.refundHistory(id: captures["id"] ?? "", revision: request.queryValues("revision").first)
            }
        },
        serverRoute("GET", ["inApps", "v1", "lookup", ":orderId"]) { store, _, captures in
            respond { try store.lookUpOrder(id: captures["orderId"] ?? "") }
        },
        serverRoute("PUT", ["inApps", "v1", "transactions", "consumption", ":id"]) { store, request, captures in
            accepted { try store.sendConsumption(id: captures["id"] ?? "", version: "v1", body: request.body) }
        },
        serverRoute("PUT", ["inApps", "v2", "transactions", "consumption", ":id"]) { store, request, captures in
            accepted { try store.sendConsumption(id: captures["id"] ?? "", version: "v2", body: request.body) }
        },
        serverRoute("POST", ["inApps", "v1", "transactions", ":id", "finish"]) { store, _, captures in
            var response = accepted { try store.finish(transactionId: captures["id"] ?? "") }
            if response.status == 202 { response.status = 200 }
            return response
        },
        serverRoute("POST", ["inApps", "v1", "notifications", "test"]) { store, _, _ in
            respond { try store.requestTestNotification() }
        },
        serverRoute("GET", ["inApps", "v1", "notifications", "test", ":token"]) { store, _, captures in
            respond { try store.testNotificationStatus(token: captures["token"] ?? "") }
        },
    ]

    /// A route that answers only a request whose bearer token passes ``ServerAPIAuthenticator``.
    static func serverRoute(
        _ method: String, _ pattern: [String],
        _ respond: @escaping @Sendable (MockStore, HTTPRequest, [String: String]) -> HTTPResponse
    ) -> Route {
        Route(method: method, pattern: pattern) { store, request, captures in
            let authenticator = ServerAPIAuthenticator(
                bundleId: store.configuration.bundleId, keys: store.configuration.apiKeys)
            do {
                try authenticator.check(
                    authorization: request.header("Authorization"), now: store.realClock.now())
            } catch {
                return HTTPResponse(status: 401)
            }
            return respond(store, request, captures)
        }
    }

    /// 202 Accepted with an empty body (Send Consumption Information), or the error.
    static func accepted(_ body: () throws -> Void) -> HTTPResponse {
        do {
            try body()
            return HTTPResponse(status: 202)
        } catch let error as MockStoreError {
            return error.response
        } catch {
            return MockStoreError.internalError(error).response
        }
    }
}
