import CreditLedger
import Payments
import TopUp
import VoiceDebriefCredit

/// `credit screen --json`: the credit screen's model for scripts.
struct ScreenOutput: Encodable {
    struct Takings: Encodable {
        var allTime: [LedgerOutputs.Takings]
        var days7: [LedgerOutputs.Takings]
        var days30: [LedgerOutputs.Takings]
    }

    struct Offer: Encodable {
        var id: String
        var displayName: String
        var displayPrice: String
    }

    struct Price: Encodable {
        var key: String
        var price: Int64
        var placeholder: Bool
    }

    /// A waiting purchase: `reason` and `transactionId` are null (not left out) when the store did not say.
    struct Pending: Encodable {
        var product: String
        var date: String
        var reason: String?
        var waitingFor: String
        var transactionId: String?
        var lapsed: Bool
        var text: String

        private enum Key: String, CodingKey { case product, date, reason, waitingFor, transactionId, lapsed, text }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(product, forKey: .product)
            try container.encode(date, forKey: .date)
            try container.encode(reason, forKey: .reason)
            try container.encode(waitingFor, forKey: .waitingFor)
            try container.encode(transactionId, forKey: .transactionId)
            try container.encode(lapsed, forKey: .lapsed)
            try container.encode(text, forKey: .text)
        }
    }

    var balance: Int64
    var formatted: String
    var used: Int64
    var toppedUp: Int64
    var belowZero: Bool
    var takings: Takings
    var entries: [EntryJSON]
    var offers: [Offer]
    var moneyTaken: Bool
    var prices: [Price]
    var message: String?
    var pending: [Pending] = []
    var collected: String?
    var storeProblem: String?

    init(_ model: CreditScreen, offers: [StoreProduct], takesMoney: Bool) {
        balance = model.balance.rawValue
        formatted = model.balance.formatted
        used = model.used.rawValue
        toppedUp = model.toppedUp.rawValue
        belowZero = model.isBelowZero
        takings = Takings(
            allTime: model.takingsAllTime.map(LedgerOutputs.Takings.init),
            days7: model.takings7Days.map(LedgerOutputs.Takings.init),
            days30: model.takings30Days.map(LedgerOutputs.Takings.init))
        entries = model.entries.map { EntryJSON($0.entry, balanceAfter: $0.balanceAfter) }
        self.offers = offers.map { Offer(id: $0.id, displayName: $0.displayName, displayPrice: $0.displayPrice) }
        moneyTaken = takesMoney
        prices = VoiceDebriefPrices().items.map {
            Price(key: $0.key, price: $0.price.rawValue, placeholder: $0.isPlaceholder)
        }
        if model.isBelowZero {
            message = "You are \(model.overBy.formatted) over your credit. \(CreditScreen.belowZeroSentence)"
        }
    }
}
