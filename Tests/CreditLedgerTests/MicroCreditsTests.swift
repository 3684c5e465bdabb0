import CreditLedger
import Testing

@Suite struct MicroCreditsTests {
    @Test func aPennyIsTenThousandAndAPoundAMillion() throws {
        #expect(MicroCredits.penny.rawValue == 10_000)
        #expect(MicroCredits.pound.rawValue == 1_000_000)
        #expect(try MicroCredits.pence(5).rawValue == 50_000)
        #expect(try MicroCredits.pence(-42).rawValue == -420_000)
        #expect(MicroCredits.zero.rawValue == 0)
    }

    @Test func additionUpToTheLimitIsExact() throws {
        #expect(try MicroCredits(Int64.max - 1).adding(MicroCredits(1)) == MicroCredits(Int64.max))
        #expect(try MicroCredits(Int64.min + 1).adding(MicroCredits(-1)) == MicroCredits(Int64.min))
        #expect(try MicroCredits(Int64.max).adding(MicroCredits(Int64.min)) == MicroCredits(-1))
        #expect(try MicroCredits(Int64.min + 1).subtracting(MicroCredits(1)) == MicroCredits(Int64.min))
        #expect(try MicroCredits(Int64.max - 1).subtracting(MicroCredits(-1)) == MicroCredits(Int64.max))
        #expect(try MicroCredits(Int64.max).negated() == MicroCredits(-Int64.max))
        #expect(try MicroCredits(Int64.max / 2).multiplied(by: 2) == MicroCredits(Int64.max - 1))
    }

    /// Operations that would go past Int64, by name.
    static func overflowing(_ name: String) throws -> MicroCredits {
        switch name {
        case "max + 1": return try MicroCredits(Int64.max).adding(MicroCredits(1))
        case "max + max": return try MicroCredits(Int64.max).adding(MicroCredits(Int64.max))
        case "min + -1": return try MicroCredits(Int64.min).adding(MicroCredits(-1))
        case "min - 1": return try MicroCredits(Int64.min).subtracting(MicroCredits(1))
        case "max - -1": return try MicroCredits(Int64.max).subtracting(MicroCredits(-1))
        case "0 - min": return try MicroCredits.zero.subtracting(MicroCredits(Int64.min))
        case "-min": return try MicroCredits(Int64.min).negated()
        case "max × 2": return try MicroCredits(Int64.max).multiplied(by: 2)
        case "min × -1": return try MicroCredits(Int64.min).multiplied(by: -1)
        case "penny × huge": return try MicroCredits.penny.multiplied(by: Int64.max / 10_000 + 1)
        case "pence(max)": return try MicroCredits.pence(Int64.max)
        case "sum past max":
            return try MicroCredits.sum([MicroCredits(Int64.max - 5), MicroCredits(3), MicroCredits(3)])
        default: return .zero
        }
    }

    /// Every operation that would go past Int64 throws; none wraps.
    @Test(arguments: [
        "max + 1", "max + max", "min + -1", "min - 1", "max - -1", "0 - min", "-min", "max × 2", "min × -1",
        "penny × huge", "pence(max)", "sum past max",
    ])
    func overflowIsReportedNeverWrapped(_ name: String) {
        do {
            let value = try Self.overflowing(name)
            Issue.record("\(name) gave \(value.rawValue) instead of an overflow error")
        } catch let error as LedgerError {
            guard case .overflow = error else {
                Issue.record("\(name): expected overflow, got \(error)")
                return
            }
            #expect(error.description.contains("does not fit"))
        } catch {
            Issue.record("\(name): expected LedgerError.overflow, got \(error)")
        }
    }

    @Test func sumIsChecked() throws {
        #expect(
            try MicroCredits.sum([MicroCredits(5_000_000), MicroCredits(-50_000), MicroCredits(-10_000)])
                == MicroCredits(4_940_000))
        #expect(try MicroCredits.sum([MicroCredits]()) == .zero)
        #expect(try MicroCredits.sum([MicroCredits(Int64.max), MicroCredits(Int64.min)]) == MicroCredits(-1))
    }

    @Test(arguments: [
        (Int64(4_940_000), "£4.94"),
        (-420_000, "-£0.42"),
        (500, "£0.0005"),
        (1, "£0.000001"),
        (-1, "-£0.000001"),
        (0, "£0.00"),
        (5_000_000, "£5.00"),
        (10_000, "£0.01"),
        (100_000, "£0.10"),
        (1_001_000, "£1.001"),
        (-5_000_000, "-£5.00"),
        (123_456_789, "£123.456789"),
        (999_990_000, "£999.99"),
        (1_000_000_000, "£1,000.00"),
        (359_995_000_000, "£359,995.00"),
        (-1_234_567_000_000, "-£1,234,567.00"),
        (Int64.max, "£9,223,372,036,854.775807"),
        (Int64.min, "-£9,223,372,036,854.775808"),
    ])
    func formatsAsPoundsWithoutRoundingAway(_ raw: Int64, _ expected: String) {
        #expect(MicroCredits(raw).formatted == expected)
        #expect(MicroCredits(raw).description == expected)
    }

    @Test func wholePence() {
        #expect(MicroCredits(30_000).isWholePence)
        #expect(MicroCredits(-30_000).isWholePence)
        #expect(MicroCredits.zero.isWholePence)
        #expect(!MicroCredits(30_001).isWholePence)
        #expect(!MicroCredits(5_000).isWholePence)
        #expect(!MicroCredits(-1).isWholePence)
    }

    @Test func ordersByValue() {
        #expect(MicroCredits(-1) < MicroCredits.zero)
        #expect(MicroCredits(Int64.min) < MicroCredits(Int64.max))
        #expect(!(MicroCredits(3) < MicroCredits(3)))
    }
}
