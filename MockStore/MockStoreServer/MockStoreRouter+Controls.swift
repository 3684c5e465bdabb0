import StoreWire

/// The test controls (what `SKTestSession` does), under `/test/v1/`.
extension MockStoreRouter {
    static let controlRoutes: [Route] = [
        Route(method: "POST", pattern: ["test", "v1", "reset"]) { store, _, _ in
            respond {
                try store.reset()
                return EmptyBody()
            }
        },
        Route(method: "POST", pattern: ["test", "v1", "clear"]) { store, _, _ in
            respond {
                try store.clearTransactions()
                return EmptyBody()
            }
        },
        Route(method: "GET", pattern: ["test", "v1", "transactions"]) { store, _, _ in
            respond { try store.testTransactions() }
        },
        Route(method: "DELETE", pattern: ["test", "v1", "transactions", ":id"]) { store, _, captures in
            respond {
                try store.deleteTransaction(id: captures["id"] ?? "")
                return EmptyBody()
            }
        },
        Route(method: "POST", pattern: ["test", "v1", "purchases"]) { store, request, _ in
            respond { try store.buyOutside(try decode(PurchaseRequestBody.self, from: request.body)) }
        },
        Route(method: "POST", pattern: ["test", "v1", "transactions", ":id", "approve"]) { store, _, captures in
            respond { try store.approve(id: captures["id"] ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "transactions", ":id", "decline"]) { store, _, captures in
            respond { try store.decline(id: captures["id"] ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "transactions", ":id", "resolve"]) { store, _, captures in
            respond { try store.resolve(id: captures["id"] ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "transactions", ":id", "refund"]) { store, request, captures in
            respond {
                let body = try decodeOptional(TestRefundBody.self, from: request.body, fallback: TestRefundBody())
                return try store.refund(
                    id: captures["id"] ?? "", reason: body.revocationReason, percentage: body.revocationPercentage)
            }
        },
        Route(method: "POST", pattern: ["test", "v1", "transactions", ":id", "refund", "reverse"]) {
            store, _, captures in
            respond { try store.reverseRefund(id: captures["id"] ?? "") }
        },
        Route(method: "POST", pattern: ["test", "v1", "transactions", ":id", "refund-request"]) {
            store, request, captures in
            respond {
                let body = try decodeOptional(
                    TestRefundRequestBody.self, from: request.body, fallback: TestRefundRequestBody())
                return try store.requestRefund(id: captures["id"] ?? "", reason: body.consumptionRequestReason)
            }
        },
        Route(method: "POST", pattern: ["test", "v1", "transactions", ":id", "refund-request", "decline"]) {
            store, _, captures in
            respond { try store.declineRefund(id: captures["id"] ?? "") }
        },
        Route(method: "GET", pattern: ["test", "v1", "settings"]) { store, _, _ in
            respond { try store.settings() }
        },
        Route(method: "POST", pattern: ["test", "v1", "settings"]) { store, request, _ in
            respond { try store.updateSettings(try decode(TestSettingsUpdate.self, from: request.body)) }
        },
        Route(method: "GET", pattern: ["test", "v1", "failures"]) { store, _, _ in
            respond { try store.failures() }
        },
        Route(method: "POST", pattern: ["test", "v1", "failures"]) { store, request, _ in
            respond { try store.setFailure(try decode(TestFailureRequest.self, from: request.body)) }
        },
        Route(method: "DELETE", pattern: ["test", "v1", "failures"]) { store, _, _ in
            respond { try store.clearFailure(api: nil) }
        },
        Route(method: "DELETE", pattern: ["test", "v1", "failures", ":api"]) { store, _, captures in
            respond { try store.clearFailure(api: captures["api"]) }
        },
        Route(method: "GET", pattern: ["test", "v1", "consumption"]) { store, _, _ in
            respond { try store.consumptionRecords() }
        },
        Route(method: "GET", pattern: ["test", "v1", "notifications"]) { store, _, _ in
            respond { try store.notificationRecords() }
        },
    ]
}
