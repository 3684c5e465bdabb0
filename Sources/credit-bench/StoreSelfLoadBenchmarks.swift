import Foundation
import MockStoreHTTP
import Platform
import StoreTestControls
import StoreWire

/// The store under its own load (issue 36, item 5): a purchase while 600 subscriptions (300 customers x 2) renew on
/// a fast clock, beside purchases on the same store idle; and notifications delivered a second to one receiver,
/// beside that receiver's raw POSTs from one client. Both in the same run.
extension StoreBenchmarks {
    /// The consumable the rows buy.
    static let selfLoadCoins = "bench.coins"

    func purchaseWhileRenewing(into table: inout ResultTable) throws {
        let customers = options.quick ? 50 : 300
        let purchases = options.quick ? 100 : 500
        let renewingSeconds = options.quick ? 3.0 : 7.0
        let catalogue = work + "/self-load.storekit"
        try LedgerData.writeFile(catalogue, Array(Self.selfLoadCatalogue().utf8))
        let store = try startEphemeralStore(catalogue: catalogue)
        defer { Measure.stop(store.pid, signal: SIGTERM) }
        let client = try LoopbackClient(port: store.port)
        for index in 0..<customers {
            let name = "customer-\(index)"
            try expect(
                client.request(TestControls.addCustomer, json: TestCustomerRequest(name: name)), "a customer")
            for group in 0..<2 {
                try expect(
                    client.request(
                        DeviceAPI.purchase, json: PurchaseRequestBody(productId: "bench.renewing\(group).monthly"),
                        headers: [HTTPHeader("X-Mock-Customer", name)]), "a subscription purchase")
            }
        }
        // Idle: nothing falls due for a month of real time.
        var idle: [Double] = []
        for _ in 0..<purchases { idle.append(try timedPurchase(client)) }
        // A month every two seconds: every subscription, bought within moments of the others, renews in one wave
        // every two seconds while purchases go on.
        try expect(
            client.request(
                TestControls.setClockRate,
                json: TestClockRequest(rate: StoreTimeRate.oneRenewalEveryTwoSeconds.rawValue)),
            "the clock's rate")
        let cpuBefore = Self.cpuSeconds(of: store.pid)
        let renewing = try purchasesInTurn(client, for: renewingSeconds)
        let cpu = Self.cpuSeconds(of: store.pid).flatMap { after in cpuBefore.map { after - $0 } }
        // Back to real time, so that the count is of the renewals made while the purchases were timed.
        try expect(
            client.request(TestControls.setClockRate, json: TestClockRequest(rate: StoreTimeRate.realTime.rawValue)),
            "the clock's rate")
        let renewals = try countRenewals(client)
        let idleP99 = Measure.percentile(idle, 99)
        let p99 = Measure.percentile(renewing, 99)
        table.add(
            ResultRow(
                what: "mock store: a purchase while \(customers * 2) subscriptions (\(customers) customers x 2) renew "
                    + "every 2 s",
                figure: "p99 \(Format.duration(p99)) of \(renewing.count) (max "
                    + "\(Format.duration(renewing.max() ?? 0)); \(Format.number(Double(renewals))) renewals made; "
                    + "store CPU \(cpu.map { Format.duration($0) } ?? "?"))",
                target: "p99 within 100 ms",
                baseline: "the same store idle: p99 \(Format.duration(idleP99)) of \(idle.count)",
                ratio: Format.ratio(p99, idleP99), met: Format.yes(p99 <= 0.1)))
    }

    /// Two rows: a receiver answering at once, and one taking 5 ms an answer.
    func notificationDelivery(into table: inout ResultTable) throws {
        try notificationDelivery(answerDelay: 0, into: &table)
        try notificationDelivery(answerDelay: 0.005, into: &table)
    }

    private func notificationDelivery(answerDelay: Double, into table: inout ResultTable) throws {
        let count = options.quick ? 200 : 2_000
        let catalogue = work + "/self-load.storekit"
        try LedgerData.writeFile(catalogue, Array(Self.selfLoadCatalogue().utf8))
        let receiver = try BenchReceiver(held: true, answerDelay: answerDelay)
        let store = try startEphemeralStore(
            catalogue: catalogue, arguments: ["--notify", receiver.url, "--notify-timeout-ms", "600000"])
        defer { Measure.stop(store.pid, signal: SIGTERM) }
        let client = try LoopbackClient(port: store.port)
        // The backlog: a purchase makes a notification; the held receiver keeps the first ones waiting.
        for _ in 0..<count { _ = try timedPurchase(client) }
        let start = Measure.now()
        receiver.release()
        guard receiver.wait(forCount: count, timeout: 600) else {
            throw BenchError("the receiver had \(receiver.count) of \(count) notifications after 10 minutes")
        }
        let storeRate = Double(count) / (Measure.now() - start)

        // The baseline: the same receiver, one client of our own POSTing a notification's body, one after another.
        let body = receiver.body
        let poster = try HTTPConnection()
        let posted = Measure.now()
        for _ in 0..<count {
            let answer = try poster.send(
                "POST", receiver.url, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
            guard answer.status == 200 else { throw BenchError("the receiver answered \(answer.status)") }
        }
        let rawRate = Double(count) / (Measure.now() - posted)
        table.add(
            ResultRow(
                what: "mock store: notifications delivered to one receiver answering "
                    + (answerDelay == 0 ? "at once" : "in \(Format.duration(answerDelay))")
                    + ", a backlog of \(Format.number(Double(count)))",
                figure: "\(Format.number(storeRate))/s",
                target: "-",
                baseline: "one client's POSTs to the receiver \(Format.number(rawRate))/s",
                ratio: Format.ratio(storeRate, rawRate), met: "-"))
    }

    /// Purchases of the coins, one after another on one connection, for `seconds`: how long each took, from its
    /// request to its answer (the longest is the longest a purchase was held up).
    private func purchasesInTurn(_ client: LoopbackClient, for seconds: Double) throws -> [Double] {
        var times: [Double] = []
        let end = Measure.now() + seconds
        while Measure.now() < end { times.append(try timedPurchase(client)) }
        return times
    }

    /// CPU seconds process `pid` has used (user and system), from /proc (nil elsewhere).
    static func cpuSeconds(of pid: pid_t) -> Double? {
        guard let text = try? LedgerData.readText("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else {
            return nil
        }
        // After the command's ")": state is field 3, utime 14 and stime 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Seconds one purchase of the coins took.
    private func timedPurchase(_ client: LoopbackClient) throws -> Double {
        let body = try HTTPResponse.encode(PurchaseRequestBody(productId: Self.selfLoadCoins))
        let start = Measure.now()
        let answer = try client.request(DeviceAPI.purchase, body: body)
        let seconds = Measure.now() - start
        try expect(answer, "a purchase")
        return seconds
    }

    /// DID_RENEW notifications the store made, counted a page at a time.
    private func countRenewals(_ client: LoopbackClient) throws -> Int {
        var renewals = 0
        var revision: String?
        while true {
            let answer = try client.request("GET", TestControls.notificationsPage(revision: revision, limit: 1_000))
            try expect(answer, "the notification list")
            let page = try JSONDecoder().decode(TestNotificationsBody.self, from: Data(answer.body))
            renewals += page.notifications.filter { $0.notificationType == .didRenew }.count
            guard page.hasMore == true else { return renewals }
            revision = page.revision
        }
    }

    private func expect(_ answer: HTTPClient.Response, _ what: String) throws {
        guard answer.status == 200 else {
            throw BenchError(
                "\(what) answered \(answer.status): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        }
    }

    /// Two subscription groups of one monthly subscription each, and a consumable.
    private static func selfLoadCatalogue() -> String {
        let groups = (0..<2).map { group in
            """
            {"id": "RENEW\(group)", "name": "Renewing \(group)", "localizations": [], "subscriptions": [{
                "productID": "bench.renewing\(group).monthly", "referenceName": "Renewing \(group) monthly",
                "type": "RecurringSubscription", "subscriptionGroupID": "RENEW\(group)", "groupNumber": 1,
                "recurringSubscriptionPeriod": "P1M", "displayPrice": "0.99", "familyShareable": false,
                "internalID": "R\(group)", "introductoryOffer": null, "adHocOffers": [], "codeOffers": [],
                "localizations": [{"locale": "en_US", "displayName": "Renewing \(group)", "description": "Bench"}]}]}
            """
        }
        return """
            {"identifier": "SELFLOAD", "version": {"major": 3, "minor": 0}, "nonRenewingSubscriptions": [],
             "products": [{"displayPrice": "0.99", "familyShareable": false, "internalID": "C0", "productID":
                "\(selfLoadCoins)", "referenceName": "Coins", "type": "Consumable", "localizations": [{"locale":
                "en_US", "displayName": "Coins", "description": "Bench"}]}],
             "settings": {"_storefront": "USA", "_locale": "en_US"},
             "subscriptionGroups": [\(groups.joined(separator: ",\n"))]}
            """
    }
}
