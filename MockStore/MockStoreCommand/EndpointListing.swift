import StoreTestControls
import StoreWire

/// The endpoints `mockstore --help` lists, each line made from its declaration: the method, the path template, and a
/// few words.
enum EndpointListing {
    /// One line of the listing.
    struct Line {
        var method: String
        var path: String
        var words: String
    }

    /// `endpoint`'s line: its method, its template (with `query`, e.g. `?ids=A,B`) and `words`.
    static func line<Request, Response, Path>(
        _ endpoint: Endpoint<Request, Response, Path>, _ words: String = "", query: String = ""
    )
        -> Line
    {
        Line(method: endpoint.method.rawValue, path: endpoint.template.description + query, words: words)
    }

    /// `lines` with the lines of one path made one, their methods joined (`GET|POST /test/v1/settings`) and their
    /// words too.
    static func merged(_ lines: [Line]) -> [Line] {
        var merged: [Line] = []
        for line in lines {
            if let index = merged.firstIndex(where: { $0.path == line.path }) {
                merged[index].method += "|" + line.method
                if !line.words.isEmpty {
                    merged[index].words += (merged[index].words.isEmpty ? "" : "; ") + line.words
                }
            } else {
                merged.append(line)
            }
        }
        return merged
    }

    /// The lines, indented two spaces, the method and the words in columns (a path too long for its column pushes
    /// its words on).
    static func text(_ lines: [Line]) -> String {
        let pathColumn = 44
        return lines.map { line in
            var text = "  " + padded(line.method, to: 5) + " " + line.path
            if !line.words.isEmpty {
                text = padded(text, to: 2 + 6 + pathColumn) + " " + line.words
            }
            return text
        }.joined(separator: "\n")
    }

    /// `text` with spaces after it up to `length` characters (unchanged when it is that long already).
    static func padded(_ text: String, to length: Int) -> String {
        text.count >= length ? text : text + String(repeating: " ", count: length - text.count)
    }

    /// The device API's lines.
    static let device = text([
        line(DeviceAPI.products, query: "?ids=A,B"),
        line(DeviceAPI.purchase, #"{"productId", "quantity"?, "appAccountToken"?}"#),
        line(DeviceAPI.purchaseStatus, "what became of a pending purchase (mock addition)"),
        line(DeviceAPI.unfinished),
        line(DeviceAPI.updates, query: "?after=CURSOR"),
        line(DeviceAPI.finish),
        line(DeviceAPI.appTransaction),
        line(DeviceAPI.storefront, "the customer's storefront now (mock addition)"),
        line(DeviceAPI.all, query: "?includeConsumableHistory=true"),
        line(DeviceAPI.currentEntitlements),
        line(DeviceAPI.subscriptionStatus),
        line(DeviceAPI.introOfferEligibility),
        line(DeviceAPI.messages, "StoreKit messages waiting (price-increase consent)"),
    ])

    /// The test controls' lines, one a path.
    static let testControls = text(
        merged([
            line(TestControls.reset), line(TestControls.clear), line(TestControls.transactions),
            line(TestControls.deleteTransaction),
            line(TestControls.buy, #"{"productId", ...}: a purchase made outside the app"#),
            line(TestControls.approve), line(TestControls.decline), line(TestControls.resolve),
            line(TestControls.refund, #"{"revocationReason"?, "revocationPercentage"?}"#),
            line(TestControls.reverseRefund),
            line(TestControls.requestRefund, #"{"consumptionRequestReason"?}"#), line(TestControls.declineRefund),
            line(TestControls.settings),
            line(
                TestControls.updateSettings,
                #"{"askToBuyEnabled", "interruptedPurchasesEnabled", "storefront", "locale"}"#),
            line(TestControls.failures), line(TestControls.setFailure, #"{"api", "error", "once"}"#),
            line(TestControls.clearFailures), line(TestControls.clearFailure),
            line(TestControls.consumption), line(TestControls.notifications), line(SandboxAPI.rootCertificate),
            line(TestControls.customers, "the customers"),
            line(TestControls.addCustomer, #"{"name", "storefront"?}: a new one"#),
            line(TestControls.removeCustomer, "a customer and everything that is theirs"),
            line(TestControls.clock), line(TestControls.advanceClock, #"{"duration"}"#),
            line(TestControls.setClockRate, #"{"rate"}"#), line(TestControls.subscriptions),
            line(TestControls.renew), line(TestControls.expire), line(TestControls.autoRenew, #"{"enabled"}"#),
            line(TestControls.change, #"{"productId"}"#),
            line(TestControls.billingSettings), line(TestControls.updateBillingSettings),
            line(TestControls.recoverBilling), line(TestControls.priceIncrease, #"{"price"?, "needsConsent"?}"#),
            line(TestControls.consentToPriceIncrease), line(TestControls.declinePriceIncrease),
            line(TestControls.offerKeys), line(TestControls.registerOfferKey, #"{"keyId", "publicKey"}"#),
            line(TestControls.familyShare, #"{"productId"}"#), line(TestControls.familyRevoke),
            line(TestControls.console, "the console: a page to look at the store and act on it in a browser"),
        ]))

    /// The Server API's lines.
    static let server = text([
        line(ServerAPI.transactionInfo, "Get Transaction Info"),
        line(ServerAPI.appTransactionInfo, "Get App Transaction Info"),
        line(ServerAPI.setAppAccountToken, "Set App Account Token"),
        line(ServerAPI.notificationHistory, "Get Notification History"),
        line(ServerAPI.history, "Get Transaction History"),
        line(ServerAPI.historyV1, "Get Transaction History v1"),
        line(ServerAPI.refundHistory, "Get Refund History"),
        line(ServerAPI.lookUpOrder, "Look Up Order ID"),
        line(ServerAPI.sendConsumption, "Send Consumption Information"),
        line(ServerAPI.sendConsumptionV1, "Send Consumption Information v1"),
        line(ServerAPI.finishTransaction, "finish a transaction from the server"),
        line(ServerAPI.requestTestNotification, "Request a Test Notification"),
        line(ServerAPI.testNotificationStatus, "Get Test Notification Status"),
        line(ServerAPI.subscriptionStatuses, "Get All Subscription Statuses"),
        line(ServerAPI.extendRenewalDate, "Extend a Subscription Renewal Date"),
        line(ServerAPI.massExtendRenewalDate, "Extend Subscription Renewal Dates for All Active Subscribers"),
        line(ServerAPI.massExtensionStatus, "Get Status of Renewal Date Extensions"),
    ])
}
