import CreditLedger
import Testing

/// No input overflows (issue 14): every number of a charge request is checked against its range, the amount with
/// checked arithmetic, and what is out of range is a typed error with the range, never a trap.
@Suite struct MeterRangeTests {
    /// A price list whose one price is near the top of 64 bits, to reach the amount's own bound.
    struct HugePrices: PriceList {
        let items = [
            PriceItem(key: "big", label: "Big", price: MicroCredits(Int64.max / 2), unit: .perItem(maximum: 10)),
            PriceItem(key: "bigMinute", label: "Big", price: MicroCredits(Int64.max / 100), unit: .perStartedMinute),
        ]
        let neverCharged: [String: String] = [:]
    }

    let prices = SgitPricesWithMinutes()

    func expectOutOfRange(
        _ request: ChargeRequest, in prices: any PriceList, option: String, allowed: ClosedRange<Int64>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let priced = try Meter.price(of: request, in: prices)
            Issue.record("\(request) was priced: \(String(describing: priced))", sourceLocation: sourceLocation)
        } catch let error as ChargeError {
            guard case .outOfRange(let key, let named, let value, let range) = error else {
                Issue.record("expected outOfRange, got \(error)", sourceLocation: sourceLocation)
                return
            }
            #expect(key == request.key && named == option && range == allowed, sourceLocation: sourceLocation)
            #expect(
                value == (option == "--seconds" ? request.seconds : request.quantity), sourceLocation: sourceLocation)
            #expect(error.isUsageError, sourceLocation: sourceLocation)
            #expect(error.description.contains("\(value)"), sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [Int64(9_223_372_036_854_775_749), 100_000_000_000_000, 360_001, 0, -5, Int64.min, Int64.max])
    func secondsOutsideOneToAHundredHoursAreOutOfRange(_ seconds: Int64) {
        expectOutOfRange(
            ChargeRequest("transcribe", seconds: seconds), in: prices, option: "--seconds", allowed: 1...360_000)
    }

    @Test func aHundredHoursIsTheMostAndIsPricedExactly() throws {
        let priced = try #require(try Meter.price(of: ChargeRequest("transcribe", seconds: 360_000), in: prices))
        #expect(priced.quantity == 6_000 && priced.amount == MicroCredits(6_000 * 30_000))
        #expect(ChargeLimits.seconds == 1...360_000)
        #expect(
            ChargeError.outOfRange(key: "k", option: "--seconds", value: 0, allowed: ChargeLimits.seconds)
                .description.contains("from 1 to 360,000"))
    }

    @Test(arguments: [Int64(-1), 1_000_001, Int64.max, Int64.min])
    func movedCountsAreInTheirRange(_ moved: Int64) {
        expectOutOfRange(
            ChargeRequest("push", quantity: moved), in: prices, option: "--quantity", allowed: 0...1_000_000)
    }

    @Test func anOptionAKeyDoesNotTakeIsRefusedForEveryKey() {
        for request in [
            ChargeRequest("transcribe", seconds: 60, quantity: 99), ChargeRequest("commit", quantity: 1),
            ChargeRequest("commit", seconds: 5), ChargeRequest("push", seconds: 5, quantity: 1),
        ] {
            #expect(throws: ChargeError.self, "\(request)") { _ = try Meter.price(of: request, in: prices) }
        }
        #expect(PricingUnit.perStartedMinute.quantityRange == nil && PricingUnit.each.quantityRange == nil)
        #expect(PricingUnit.perItem(maximum: 4).quantityRange == 1...4)
        #expect(PricingUnit.perStartedMinute.ruleDescription == "--seconds 1 to 360,000")
        #expect(PricingUnit.whenSomethingMoved.ruleDescription == "--quantity 0 to 1,000,000")
        #expect(PricingUnit.each.ruleDescription == nil)
    }

    @Test func anAmountBeyond64BitsIsOutOfRangeNotATrap() {
        let huge = HugePrices()
        expectOutOfRange(ChargeRequest("big", quantity: 3), in: huge, option: "--quantity", allowed: 1...2)
        expectOutOfRange(
            ChargeRequest("bigMinute", seconds: 360_000), in: huge, option: "--seconds", allowed: 1...6_000)
    }

    @Test func anOutOfRangeChargeWritesNothing() throws {
        let fixture = try LedgerFixture()
        let ledger = try fixture.open()
        let before = try readBytes(fixture.file(of: ledger))
        let meter = Meter(ledger: ledger, prices: prices, ids: SequentialIDs(prefix: "x"))
        #expect(throws: ChargeError.self) {
            try meter.charge(ChargeRequest("transcribe", seconds: 100_000_000_000_000))
        }
        #expect(try readBytes(fixture.file(of: ledger)) == before)
        #expect(!ChargeError.neverCharged(act: "a", message: "b").isUsageError)
        #expect(ChargeError.unknownKey("a", known: []).isUsageError)
    }

    @Test func thousandsAreGrouped() {
        #expect(
            ChargeLimits.words(0) == "0" && ChargeLimits.words(999) == "999" && ChargeLimits.words(1_000) == "1,000")
        #expect(ChargeLimits.words(-1_234_567) == "-1,234,567" && ChargeLimits.words(360_000) == "360,000")
    }
}

/// The made-up app's prices with a per-minute act.
struct SgitPricesWithMinutes: PriceList {
    let items =
        SgitPrices().items + [
            PriceItem(key: "transcribe", label: "Transcribe", price: MicroCredits(30_000), unit: .perStartedMinute)
        ]
    let neverCharged = SgitPrices().neverCharged
}
