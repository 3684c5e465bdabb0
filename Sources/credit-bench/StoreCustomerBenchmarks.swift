import Foundation
import MockStoreHTTP
import Platform
import Signing
import StoreTestControls
import StoreWire

/// The many-customers row (issue 27): Get All Subscription Statuses from a store holding 1,000 customers with 10
/// subscriptions each (100 with `--quick`), beside the same call on a store of one customer with 10, both started
/// in the same run and asked in turn.
extension StoreBenchmarks {
    /// Subscription groups in the bench's catalogue, one monthly subscription in each: a customer's ten
    /// subscriptions.
    static let benchGroups = 10

    func statusesWithManyCustomers(into table: inout ResultTable) throws {
        let customers = options.quick ? 100 : 1_000
        let requests = options.quick ? 100 : 500
        let catalogue = work + "/customers.storekit"
        try LedgerData.writeFile(catalogue, Array(Self.customersCatalogue().utf8))
        let token = try Self.serverToken()

        let one = try startEphemeralStore(catalogue: catalogue)
        defer { Measure.stop(one.pid, signal: SIGTERM) }
        let many = try startEphemeralStore(catalogue: catalogue)
        defer { Measure.stop(many.pid, signal: SIGTERM) }
        let oneClient = try LoopbackClient(port: one.port)
        let manyClient = try LoopbackClient(port: many.port)
        let alone = try subscribeToEveryGroup(oneClient, customer: nil)
        var ids: [String] = []
        for index in 0..<customers {
            let name = "customer-\(index)"
            let added = try manyClient.request(TestControls.addCustomer, json: TestCustomerRequest(name: name))
            guard added.status == 200 else { throw BenchError("adding a customer answered \(added.status)") }
            ids.append(try subscribeToEveryGroup(manyClient, customer: name))
        }

        // In turn, so both stores see the same machine: the one customer, then one of the thousand (each in turn).
        var oneTimes: [Double] = []
        var manyTimes: [Double] = []
        for index in 0..<requests {
            oneTimes.append(try timedStatuses(oneClient, transactionId: alone, token: token))
            manyTimes.append(try timedStatuses(manyClient, transactionId: ids[index % ids.count], token: token))
        }
        let oneMedian = Measure.median(oneTimes)
        let manyMedian = Measure.median(manyTimes)
        table.add(
            ResultRow(
                what: "mock store: Get All Subscription Statuses, \(Format.number(Double(customers))) customers x "
                    + "\(Self.benchGroups) subscriptions",
                figure: "\(Format.duration(manyMedian)) median of \(requests) (p99 "
                    + "\(Format.duration(Measure.percentile(manyTimes, 99))))",
                target: "within 2x of baseline",
                baseline: "one customer x \(Self.benchGroups) subscriptions \(Format.duration(oneMedian)) median",
                ratio: Format.ratio(manyMedian, oneMedian), met: Format.yes(manyMedian <= 2 * oneMedian)))
    }

    /// `mockstore --ephemeral` on a free port with `catalogue`.
    func startEphemeralStore(catalogue: String, arguments: [String] = []) throws -> (pid: pid_t, port: UInt16) {
        guard let mockstore = options.mockstore else {
            throw BenchError("the mockstore binary is not beside credit-bench")
        }
        let started = try Measure.start(
            mockstore, ["--ephemeral", "--port", "0", "--catalogue", catalogue] + arguments,
            errorLog: work + "/customers.log")
        defer { close(started.output) }
        guard let line = Measure.readLine(from: started.output, timeout: 30), let colon = line.lastIndex(of: ":"),
            let port = UInt16(line[line.index(after: colon)...])
        else {
            Measure.stop(started.pid)
            throw BenchError("mockstore did not say where it listens (see \(work)/customers.log)")
        }
        return (started.pid, port)
    }

    /// `customer` (the default one when `nil`) subscribes in every group; returns the id of the last transaction.
    private func subscribeToEveryGroup(_ client: LoopbackClient, customer: String?) throws -> String {
        var last = ""
        for group in 0..<Self.benchGroups {
            let bought = try client.request(
                DeviceAPI.purchase, json: PurchaseRequestBody(productId: "bench.group\(group).monthly"),
                headers: customer.map { [HTTPHeader("X-Mock-Customer", $0)] } ?? [])
            guard bought.status == 200,
                let answer = try? JSONDecoder().decode(BoughtAnswer.self, from: Data(bought.body)),
                let claims = try? JSONDecoder().decode(
                    TransactionClaims.self, from: Data(try CompactJWS.parse(answer.signedTransaction).payload))
            else { throw BenchError("a subscription purchase answered \(bought.status)") }
            last = claims.transactionId
        }
        return last
    }

    /// Seconds one Get All Subscription Statuses took; it must list every group.
    private func timedStatuses(_ client: LoopbackClient, transactionId: String, token: String) throws -> Double {
        let start = Measure.now()
        let answer = try client.request(
            ServerAPI.subscriptionStatuses, .init(transactionId: transactionId),
            headers: [HTTPHeader("Authorization", "Bearer " + token)])
        let seconds = Measure.now() - start
        guard answer.status == 200,
            let body = try? JSONDecoder().decode(StatusesAnswer.self, from: Data(answer.body)),
            body.data.count == Self.benchGroups
        else { throw BenchError("Get All Subscription Statuses answered \(answer.status) without every group") }
        return seconds
    }

    /// A bearer token as Apple's libraries make one (the store, started without `--api-key`, checks its form only).
    private static func serverToken() throws -> String {
        let claims = TokenClaims(
            iss: "bench-issuer", aud: "appstoreconnect-v1", bid: "ai.voicedebrief.app",
            exp: Int(Date().timeIntervalSince1970) + 3_000)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload = Array(try encoder.encode(claims))
        return try CompactJWS.sign(
            payload: payload, typ: "JWT", with: .es256(key: try P256PrivateKey.generate(), x5c: nil, keyID: "BENCH"))
    }

    /// A StoreKit configuration with ``benchGroups`` subscription groups of one monthly subscription each.
    private static func customersCatalogue() -> String {
        let groups = (0..<benchGroups).map { group in
            """
            {"id": "BENCH\(group)", "name": "Group \(group)", "localizations": [], "subscriptions": [{
                "productID": "bench.group\(group).monthly", "referenceName": "Group \(group) monthly",
                "type": "RecurringSubscription", "subscriptionGroupID": "BENCH\(group)", "groupNumber": 1,
                "recurringSubscriptionPeriod": "P1M", "displayPrice": "0.99", "familyShareable": false,
                "internalID": "B\(group)", "introductoryOffer": null, "adHocOffers": [], "codeOffers": [],
                "localizations": [{"locale": "en_US", "displayName": "Group \(group)", "description": "Bench"}]}]}
            """
        }
        return """
            {"identifier": "BENCH", "version": {"major": 3, "minor": 0}, "products": [], "nonRenewingSubscriptions": [],
             "settings": {"_storefront": "USA", "_locale": "en_US"},
             "subscriptionGroups": [\(groups.joined(separator: ",\n"))]}
            """
    }
}

/// What the bench reads of a purchase's answer: the signed transaction.
private struct BoughtAnswer: Decodable {
    var signedTransaction: String
}

/// What the bench reads of a signed transaction: its id.
private struct TransactionClaims: Decodable {
    var transactionId: String
}

/// What the bench counts in Get All Subscription Statuses: one item a subscription group.
private struct StatusesAnswer: Decodable {
    struct Group: Decodable {}
    var data: [Group]
}

/// The claims of the bench's Server API bearer token, as Apple's libraries put them.
private struct TokenClaims: Encodable {
    var iss: String
    var aud: String
    var bid: String
    var exp: Int
}
