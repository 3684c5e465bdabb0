import Foundation
import Signing

/// What a top-up's or refund step's receipt (the store's signed transaction) says about the money: the price paid,
/// its currency and the storefront it was bought in, and the refund it shows, if any.
///
/// The payload is read without checking the store's signature, as ``RefundReceipt`` reads it: the line it is on is
/// proved by the ledger's own MAC and chain, and the signature was checked when the entry was written. A simulated
/// top-up has no receipt: no money was taken.
public struct SaleReceipt: Sendable, Equatable {
    /// `price`: what was paid, in milliunits of the currency (5000 is £5.00), as Apple writes it.
    public var priceMilliunits: Int64
    /// `currency`: ISO 4217 (`GBP`).
    public var currency: String
    /// `storefront`: ISO 3166-1 alpha-3 (`GBR`).
    public var storefront: String
    /// The refund the transaction shows (nil: not refunded when signed).
    public var refund: RefundEvent?

    public init(priceMilliunits: Int64, currency: String, storefront: String, refund: RefundEvent? = nil) {
        self.priceMilliunits = priceMilliunits
        self.currency = currency
        self.storefront = storefront
        self.refund = refund
    }

    /// What the compact JWS `receipt` says, or nil when it is not a signed transaction with a price, a currency and
    /// a storefront that can be read (`credit verify` reports such a receipt).
    public init?(_ receipt: String?) {
        guard let receipt, let jws = try? CompactJWS.parse(receipt),
            let fields = try? JSONDecoder().decode(Fields.self, from: Data(jws.payload)),
            fields.price >= 0, SaleReceipt.isCode(fields.currency), SaleReceipt.isCode(fields.storefront)
        else { return nil }
        priceMilliunits = fields.price
        currency = fields.currency
        storefront = fields.storefront
        refund = RefundReceipt(receipt)?.event
    }

    /// The price in micro-units of its currency (a thousand per milliunit), checked.
    public var grossMicros: Int64 {
        get throws { try MicroCredits(priceMilliunits).multiplied(by: 1_000).rawValue }
    }

    /// Whether `text` is a currency or storefront code: three ASCII capital letters.
    public static func isCode(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }

    private struct Fields: Decodable {
        var price: Int64
        var currency: String
        var storefront: String
    }
}
