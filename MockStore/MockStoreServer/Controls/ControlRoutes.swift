import StoreTestControls
import StoreWire

/// The test controls (what `SKTestSession` does), under `/test/v1/`.
enum ControlRoutes: RouteTable {
    static let routes: [Route] = [
        route(TestControls.reset) { store, _, _ in
            try store.controls.reset()
            return EmptyBody()
        },
        route(TestControls.clear) { store, _, _ in
            try store.controls.clearTransactions()
            return EmptyBody()
        },
        route(TestControls.transactions) { store, _, _ in try store.controls.testTransactions() },
        route(TestControls.deleteTransaction) { store, _, path in
            try store.controls.deleteTransaction(id: path.transactionId)
            return EmptyBody()
        },
        route(TestControls.buy) { store, request, _ in
            try store.controls.buyOutside(try decode(PurchaseRequestBody.self, from: request.body))
        },
        route(TestControls.approve) { store, _, path in try store.controls.approve(id: path.transactionId) },
        route(TestControls.decline) { store, _, path in try store.controls.decline(id: path.transactionId) },
        route(TestControls.resolve) { store, _, path in try store.controls.resolve(id: path.transactionId) },
        route(TestControls.refund) { store, request, path in
            let body = try decodeOptional(TestRefundBody.self, from: request.body, fallback: TestRefundBody())
            return try store.refunds.refund(
                id: path.transactionId, reason: body.revocationReason, percentage: body.revocationPercentage)
        },
        route(TestControls.reverseRefund) { store, _, path in
            try store.refunds.reverseRefund(id: path.transactionId)
        },
        route(TestControls.requestRefund) { store, request, path in
            let body = try decodeOptional(
                TestRefundRequestBody.self, from: request.body, fallback: TestRefundRequestBody())
            return try store.refunds.requestRefund(id: path.transactionId, reason: body.consumptionRequestReason)
        },
        route(TestControls.declineRefund) { store, _, path in
            try store.refunds.declineRefund(id: path.transactionId)
        },
        route(TestControls.settings) { store, _, _ in try store.settings.current() },
        route(TestControls.updateSettings) { store, request, _ in
            try store.settings.updateSettings(try decode(TestSettingsUpdate.self, from: request.body))
        },
        route(TestControls.failures) { store, _, _ in try store.settings.failures() },
        route(TestControls.setFailure) { store, request, _ in
            try store.settings.setFailure(try decode(TestFailureRequest.self, from: request.body))
        },
        route(TestControls.clearFailures) { store, _, _ in try store.settings.clearFailure(api: nil) },
        route(TestControls.clearFailure) { store, _, path in try store.settings.clearFailure(api: path.api.rawValue)
        },
        route(TestControls.consumption) { store, _, _ in try store.controls.consumptionRecords() },
        route(TestControls.notifications) { store, _, query in
            try store.notifications.notificationRecords(revision: query.revision, limit: query.limit)
        },
    ]
}
