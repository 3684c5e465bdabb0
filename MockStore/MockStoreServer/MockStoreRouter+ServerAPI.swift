import Foundation
import MockStoreHTTP
import StoreWire

/// The App Store Server API subset, at Apple's paths: each request's bearer token is checked first, and a bad
/// one gets a 401 without a body, as Apple answers.
extension MockStoreRouter {
    static let serverRoutes: [Route] = [
        serverRoute(ServerAPI.transactionInfo) { store, _, captures in
            try store.transactionInfo(id: captures["transactionId"])
        },
        serverRoute(ServerAPI.appTransactionInfo) { store, _, captures in
            try store.appTransactionInfo(id: captures["transactionId"])
        },
        authorized(
            accepted(ServerAPI.setAppAccountToken, status: 200) { store, request, captures in
                try store.setAppAccountToken(
                    originalTransactionId: captures["originalTransactionId"],
                    try decode(UpdateAppAccountTokenRequestBody.self, from: request.body))
            }),
        serverRoute(ServerAPI.notificationHistory) { store, request, _ in
            try store.notificationHistory(
                try decode(NotificationHistoryRequestBody.self, from: request.body),
                paginationToken: request.queryValues("paginationToken").first)
        },
        serverRoute(ServerAPI.historyV1) { store, request, captures in
            try store.history(id: captures["transactionId"], version: "v1", query: request.query)
        },
        serverRoute(ServerAPI.history) { store, request, captures in
            try store.history(id: captures["transactionId"], version: "v2", query: request.query)
        },
        serverRoute(ServerAPI.refundHistory) { store, request, captures in
            try store.refundHistory(id: captures["transactionId"], revision: request.queryValues("revision").first)
        },
        serverRoute(ServerAPI.lookUpOrder) { store, _, captures in try store.lookUpOrder(id: captures["orderId"])
        },
        authorized(
            accepted(ServerAPI.sendConsumptionV1) { store, request, captures in
                try store.sendConsumption(id: captures["transactionId"], version: "v1", body: request.body)
            }),
        authorized(
            accepted(ServerAPI.sendConsumption) { store, request, captures in
                try store.sendConsumption(id: captures["transactionId"], version: "v2", body: request.body)
            }),
        authorized(
            accepted(ServerAPI.finishTransaction, status: 200) { store, _, captures in
                try store.finish(transactionId: captures["transactionId"])
            }),
        serverRoute(ServerAPI.requestTestNotification) { store, _, _ in try store.requestTestNotification() },
        serverRoute(ServerAPI.testNotificationStatus) { store, _, captures in
            try store.testNotificationStatus(token: captures["token"])
        },
    ]

    /// The handler of a Server API `endpoint` whose answer is its JSON `Response`, checking the bearer token first.
    static func serverRoute<Request, Response: Encodable>(
        _ endpoint: Endpoint<Request, Response>,
        _ answer: @escaping @Sendable (MockStore, HTTPRequest, PathParameters) throws -> Response
    ) -> Route {
        authorized(route(endpoint, answer))
    }

    /// `route`, answering only a request whose bearer token passes ``ServerAPIAuthenticator`` (a 401 without a body
    /// otherwise).
    static func authorized(_ route: Route) -> Route {
        var checked = route
        checked.respond = { store, request, captures in
            let authenticator = ServerAPIAuthenticator(
                bundleId: store.configuration.bundleId, keys: store.configuration.apiKeys)
            do {
                try authenticator.check(
                    authorization: request.header("Authorization"), now: store.realClock.now())
            } catch {
                return HTTPResponse(status: 401)
            }
            return route.respond(store, request, captures)
        }
        return checked
    }

    /// The handler of an `endpoint` that answers without a body: `status` (202 Accepted, as Send Consumption
    /// Information answers, or 200) when `perform` succeeds, else its error.
    static func accepted<Request>(
        _ endpoint: Endpoint<Request, NoBody>, status: Int = 202,
        _ perform: @escaping @Sendable (MockStore, HTTPRequest, PathParameters) throws -> Void
    ) -> Route {
        Route(endpoint) { store, request, captures in
            var response = accepted { try perform(store, request, captures) }
            if response.status == 202 { response.status = status }
            return response
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
