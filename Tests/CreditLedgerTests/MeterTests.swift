import CreditLedger
import Testing

/// The meter with a second, made-up app's price list (`SgitPrices`): the ledger and the meter are generic.
@Suite struct MeterTests {
    /// A ledger and a meter on it with the made-up app's prices; the fixture keeps the directory alive.
    final class Metered {
        let fixture: LedgerFixture
        let ledger: Ledger
        let meter: Meter
        init() throws {
            fixture = try LedgerFixture()
            ledger = try fixture.open()
            meter = Meter(ledger: ledger, prices: SgitPrices(), ids: SequentialIDs(prefix: "charge"))
        }
    }

    private func meter() throws -> (LedgerFixture, Ledger, Meter) {
        let metered = try Metered()
        return (metered.fixture, metered.ledger, metered.meter)
    }

    @Test func anotherAppsPriceListChargesItsOwnKeys() throws {
        let (fixture, ledger, meter) = try meter()
        defer { withExtendedLifetime(fixture) {} }
        let outcome = try meter.charge(ChargeRequest("commit", subject: "repo-1"))
        let entry = try #require(outcome.entry)
        #expect(entry.id == "charge-0001")
        #expect(entry.kind == .charge)
        #expect(entry.feature == "commit")
        #expect(entry.subject == "repo-1")
        #expect(entry.quantity == 1)
        #expect(entry.amount == MicroCredits(-20_000))
        #expect(ledger.balance == MicroCredits(4_980_000))
        try meter.charge(ChargeRequest("push", quantity: 4))
        try meter.charge(ChargeRequest("clone", quantity: 3))
        #expect(try FeatureTakings.list(in: ledger).map(\.feature) == ["clone", "push", "commit"])
        #expect(
            try FeatureTakings.list(in: ledger).map(\.charged) == [
                MicroCredits(30_000), MicroCredits(30_000), MicroCredits(20_000),
            ])
    }

    @Test func aPushThatMovedNothingCostsNothing() throws {
        let (fixture, ledger, meter) = try meter()
        let before = try readBytes(fixture.file(of: ledger))
        let outcome = try meter.charge(ChargeRequest("push", quantity: 0))
        #expect(outcome == .notCharged("nothing moved, so nothing was charged"))
        #expect(try readBytes(fixture.file(of: ledger)) == before)
        let moved = try #require(try meter.charge(ChargeRequest("push", quantity: 7)).entry)
        #expect(moved.amount == MicroCredits(-30_000), "once, whatever moved")
        #expect(moved.quantity == 7)
    }

    @Test func oncePerSubjectPerSession() throws {
        let (fixture, ledger, meter) = try meter()
        defer { withExtendedLifetime(fixture) {} }
        #expect(try meter.charge(ChargeRequest("blame", subject: "a.swift")).entry != nil)
        #expect(
            try meter.charge(ChargeRequest("blame", subject: "a.swift"))
                == .notCharged("already charged once while the app is open"))
        #expect(try meter.charge(ChargeRequest("blame", subject: "b.swift")).entry != nil)
        let next = Meter(ledger: ledger, prices: SgitPrices(), ids: SequentialIDs(prefix: "next"))
        #expect(try next.charge(ChargeRequest("blame", subject: "a.swift")).entry != nil, "a new session charges again")
        #expect(ledger.entries.filter { $0.feature == "blame" }.count == 3)
        // Acts that are not once-per-session are charged every time.
        try meter.charge(ChargeRequest("commit", subject: "r"))
        try meter.charge(ChargeRequest("commit", subject: "r"))
        #expect(ledger.entries.filter { $0.feature == "commit" }.count == 2)
    }

    @Test(arguments: [
        (ChargeRequest("status"), "never"),
        (ChargeRequest("rebase"), "unknown"),
        (ChargeRequest("commit", seconds: 30), "invalid"),
        (ChargeRequest("commit", quantity: 2), "invalid"),
        (ChargeRequest("push"), "invalid"),
        (ChargeRequest("push", quantity: -1), "invalid"),
        (ChargeRequest("clone", quantity: 0), "invalid"),
        (ChargeRequest("clone", quantity: 4), "invalid"),
    ])
    func refusedRequestsWriteNothing(_ request: ChargeRequest, _ expected: String) throws {
        let (fixture, ledger, meter) = try meter()
        let before = try readBytes(fixture.file(of: ledger))
        do {
            let outcome = try meter.charge(request)
            Issue.record("\(request.key) should be refused, got \(outcome)")
        } catch let error as ChargeError {
            switch (error, expected) {
            case (.neverCharged(let act, let message), "never"):
                #expect(act == "status")
                #expect(message == "git status is never charged.")
            case (.unknownKey(let key, let known), "unknown"):
                #expect(key == "rebase")
                #expect(known == ["commit", "push", "clone", "blame"])
            case (.invalidRequest(let message), "invalid"):
                #expect(message.contains(request.key))
            case (.outOfRange(let key, let option, let value, _), "invalid"):
                // A number outside the key's rule: typed, with the range (and a usage error).
                #expect(key == request.key && option == "--quantity" && value == request.quantity)
                #expect(error.isUsageError && error.description.contains(request.key))
            default:
                Issue.record("expected \(expected), got \(error)")
            }
        }
        #expect(try readBytes(fixture.file(of: ledger)) == before)
    }

    @Test func performChargesOnlyWhenTheWorkSucceeds() throws {
        let (fixture, ledger, meter) = try meter()
        defer { withExtendedLifetime(fixture) {} }
        let (result, outcome) = try meter.perform(ChargeRequest("commit", subject: "r")) { "abc123" }
        #expect(result == "abc123")
        #expect(outcome.entry?.feature == "commit")
        #expect(ledger.balance == MicroCredits(4_980_000))
    }

    struct WorkFailed: Error, Equatable {}

    @Test func somethingThatFailsCostsNothing() throws {
        let (fixture, ledger, meter) = try meter()
        let before = try readBytes(fixture.file(of: ledger))
        #expect(throws: WorkFailed.self) {
            _ = try meter.perform(ChargeRequest("commit", subject: "r")) { () throws -> Int in throw WorkFailed() }
        }
        #expect(try readBytes(fixture.file(of: ledger)) == before)
        #expect(ledger.entries.count == 1)
        #expect(ledger.balance == MicroCredits(5_000_000))
    }

    @Test func aBadRequestDoesNoWork() throws {
        let (fixture, ledger, meter) = try meter()
        let before = try readBytes(fixture.file(of: ledger))
        var worked = false
        #expect(throws: ChargeError.self) {
            _ = try meter.perform(ChargeRequest("status")) { worked = true }
        }
        #expect(!worked)
        #expect(try readBytes(fixture.file(of: ledger)) == before)
    }

    @Test func workThatMovedNothingIsDoneAndNotCharged() throws {
        let (fixture, ledger, meter) = try meter()
        defer { withExtendedLifetime(fixture) {} }
        var worked = false
        let (_, outcome) = try meter.perform(ChargeRequest("push", quantity: 0)) { worked = true }
        #expect(worked)
        #expect(outcome.entry == nil)
        #expect(ledger.entries.count == 1)
    }

    @Test func priceDescriptionsAreForPeople() {
        let items = SgitPrices().items
        #expect(items.map(\.priceDescription) == ["2p", "3p, when something moved", "1p each, up to 3", "£0.005"])
        #expect(
            PriceItem(key: "t", label: "t", price: MicroCredits(30_000), unit: .perStartedMinute).priceDescription
                == "3p a started minute")
        #expect(PriceItem(key: "v", label: "v", price: MicroCredits(1_500_000)).priceDescription == "£1.50")
    }
}
