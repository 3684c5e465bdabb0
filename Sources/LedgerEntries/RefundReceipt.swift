import Foundation
import Signing

/// What a refund step's receipt (the store's signed transaction that showed the state the step records) says about
/// the refund: when the store signed it, and the refund it carries, if any.
///
/// The payload is read without checking the store's signature: the line it is on is already proved by the ledger's
/// own MAC and chain, and the signature was checked when the step was written. Only the few fields needed are read.
public struct RefundReceipt: Sendable, Equatable {
    /// `signedDate`: when the store signed it, milliseconds since 1970.
    public var signedDate: Int64
    /// The refund it shows (nil: not refunded when signed).
    public var event: RefundEvent?

    public init(signedDate: Int64, event: RefundEvent?) {
        self.signedDate = signedDate
        self.event = event
    }

    /// What the compact JWS `receipt` says, or nil when it is not a signed transaction that can be read.
    public init?(_ receipt: String?) {
        guard let receipt, let jws = try? CompactJWS.parse(receipt),
            let fields = try? JSONDecoder().decode(Fields.self, from: Data(jws.payload))
        else { return nil }
        signedDate = fields.signedDate
        event = fields.revocationDate.map { date in
            // Only a prorated refund takes a part; any other is the whole purchase, as the store means it.
            let prorated = fields.revocationType == "REFUND_PRORATED"
            return RefundEvent(date: date, milliPercent: prorated ? fields.revocationPercentage ?? 100_000 : 100_000)
        }
    }

    private struct Fields: Decodable {
        var signedDate: Int64
        var revocationDate: Int64?
        var revocationType: String?
        var revocationPercentage: Int?
    }
}
