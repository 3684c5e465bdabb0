import CreditLedger
import OptionParsing
import VoiceDebriefCredit

/// `credit charge KEY`: charges one act that has been done. Its words are those of each line of `credit run` too.
struct ChargeCommand: CreditCommand {
    static let seconds = Option.integer(
        .seconds, "S", in: ChargeLimits.seconds, noun: "a number of seconds",
        // The parser states the range after the help: `(1 to 360,000)`, from ChargeLimits.seconds.
        help: "audio length, for a transcript (3p a started minute; at most 100 hours)")
    static let quantity = Option.integer(
        .quantity, "N", in: 0...Int64.max, noun: "a number",
        help: "by key: " + quantityRules
            + " (files saved, or things moved: 0 moves nothing, no charge); refused for any other key")
    static let subject = Option.string(
        .subject, "ID", maxBytes: InputLimits.subjectBytes,
        help:
            "the note or vault it was for; readNote needs it "
            + "(at most \(ChargeLimits.words(Int64(InputLimits.subjectBytes))) bytes)"
    )
    static let autoOpen = Option.flag(
        .autoOpen, help: "the note opened by itself when a recording stopped: not charged")
    static let key = Argument.word(.key, help: "the key of the act to charge (see `credit prices`)")

    static let configuration = CommandSpec(
        "charge", summary: "charge one act (see `credit prices` for the keys)",
        discussion: """
            Charges one act that has been done. Recording and the other uncharged acts are refused: they are never
            charged. readNote needs --subject (the note): a note is charged once while the app is open, so
            without it the act is refused. --json prints the entry written (with "id", "amount", "balanceAfter"),
            or {"charged": false, "reason"}.
            """,
        options: [seconds.spec, quantity.spec, subject.spec, autoOpen.spec], positionals: [key.spec])

    /// Each key's `--quantity` rule, for `charge --help` (from the price list, so help and checks agree).
    static var quantityRules: String {
        VoiceDebriefPrices().items.compactMap { item in
            item.unit.quantityRange.map {
                "\(item.key) \(ChargeLimits.words($0.lowerBound)) to \(ChargeLimits.words($0.upperBound))"
            }
        }.joined(separator: "; ")
    }

    /// The act, as the words describe it.
    let request: ChargeRequest

    init(_ arguments: ParsedArguments) throws(UsageError) {
        request = ChargeRequest(
            try arguments.value(of: Self.key), seconds: try arguments.value(of: Self.seconds),
            quantity: try arguments.value(of: Self.quantity), subject: try arguments.value(of: Self.subject),
            automatic: try arguments.value(of: Self.autoOpen))
    }

    /// Reads one line of `credit run` with the words of `credit charge`.
    static func request(line words: [String]) throws(UsageError) -> ChargeRequest {
        guard case .run(let arguments) = try configuration.parse(words) else {
            throw UsageError("--help is not an act")
        }
        return try ChargeCommand(arguments).request
    }

    func run(_ context: Context) throws -> Int32 {
        try LedgerCommands.check(request)
        return try context.withLedger { ledger in
            let meter = CreditApp.meter(for: ledger, ids: context.ids)
            let outcome = try meter.charge(request)
            LedgerCommands.report(outcome, request: request, ledger: ledger, context: context)
            return CreditCLI.success
        }
    }
}
