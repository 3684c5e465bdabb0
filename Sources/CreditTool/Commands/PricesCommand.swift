import CreditLedger
import OptionParsing
import VoiceDebriefCredit

/// `credit prices`: the price list.
struct PricesCommand: CreditCommand {
    static let configuration = CommandSpec(
        "prices", summary: "the price list (placeholders)", discussion: "The price list. Every price is a placeholder.")

    init(_ arguments: ParsedArguments) {}

    func run(_ context: Context) throws -> Int32 {
        let prices = VoiceDebriefPrices()
        if context.json {
            try printJSON(
                prices.items.map { item in
                    LedgerOutputs.Price(
                        key: item.key, label: item.label, name: item.name, price: item.price.rawValue,
                        unit: item.priceDescription, placeholder: item.isPlaceholder)
                })
        } else {
            print(LedgerCommands.pricesText(prices, style: context.style))
        }
        return CreditCLI.success
    }
}
