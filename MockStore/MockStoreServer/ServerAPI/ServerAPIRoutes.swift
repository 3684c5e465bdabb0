import Foundation
import MockStoreHTTP
import StoreWire

/// The App Store Server API subset, at Apple's paths: each request's bearer token is checked first, and a bad
/// one gets a 401 without a body, as Apple answers.
enum ServerAPIRoutes: RouteTable {
    static let routes: [Route] = [
        serverRoute(ServerAPI.transactionInfo) { store, _, path in
            try store.serverAPI.transactionInfo(id: path.transactionId)
        },
        serverRoute(ServerAPI.appTransactionInfo) { store, _, path in
            try store.serverAPI.appTransactionInfo(id: path.transactionId)
        },
        authorized(
            accepted(ServerAPI.setAppAccountToken, status: 200) { store, request, path in
                try store.serverAPI.setAppAccountToken(
                    originalTransactionId: path.originalTransactionId,
                    try decode(UpdateAppAccountTokenRequestBody.self, from: request.body))
            }),
        serverRoute(ServerAPI.notificationHistory) { store, request, query in
            try store.notifications.notificationHistory(
                try decode(NotificationHistoryRequestBody.self, from: request.body),
                paginationToken: query.paginationToken)
        },
        serverRoute(ServerAPI.historyV1) { store, _, parameters in
            try store.serverAPI.history(parameters, version: .v1)
        },
        serverRoute(ServerAPI.history) { store, _, parameters in
            try store.serverAPI.history(parameters, version: .v2)
        },
        serverRoute(ServerAPI.refundHistory) { store, _, path in
            try store.serverAPI.refundHistory(id: path.transactionId, revision: path.revision)
        },
        serverRoute(ServerAPI.lookUpOrder) { store, _, path in
            try store.serverAPI.lookUpOrder(id: path.orderId)
        },
        authorized(
            accepted(ServerAPI.sendConsumptionV1) { store, request, path in
                try store.serverAPI.sendConsumption(id: path.transactionId, version: .v1, body: request.body)
            }),
        authorized(
            accepted(ServerAPI.sendConsumption) { store, request, path in
                try store.serverAPI.sendConsumption(id: path.transactionId, version: .v2, body: request.body)
            }),
        authorized(
            accepted(ServerAPI.finishTransaction, status: 200) { store, _, path in
                try store.purchases.finish(transactionId: path.transactionId)
            }),
        serverRoute(ServerAPI.requestTestNotification) { store, _, _ in try store.serverAPI.requestTestNotification() },
        serverRoute(ServerAPI.testNotificationStatus) { store, _, path in
            try store.serverAPI.testNotificationStatus(token: path.token)
        },
    ]
}
