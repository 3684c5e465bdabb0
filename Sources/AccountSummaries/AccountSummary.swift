import LedgerEntries
import LedgerMoney

/// What one account may share of its figures, for the P&L of all accounts together (`credit export --summary`):
/// for each device of the account, per day and feature, how many charges and declines that device wrote and how much
/// was charged, given back and spent serving them, and the declines by reason. No subject, entry id, text or device id
/// is in it; the account is a random id and each device a pseudonym.
///
/// ## The account id
///
/// ``account`` is the first 128 bits of SHA-256 over a fixed label and the account's head-signing public key, in hex
/// (``accountID(for:)``). The head key is made once for an account and shared by its devices, so the id is the same in
/// every export of the account, from any of its devices; it is random, since the key is; and it names no person. Being
/// derived from the public key inside the summary, it is checked by anyone: a summary that claims another account's id
/// under a key of its own does not verify, so it cannot supersede that account's real summary. (An HMAC of a label
/// under the ledger key would be as stable and as random, but nobody else could check it.)
///
/// ## Devices, and which export counts
///
/// Each device writes only its own ledger file, and a data directory holds some prefix of each device's file (its
/// own, and what it was given by `credit join` and `credit merge`). So a summary has one ``SummaryDevice`` section per
/// device whose entries it holds, with that device's head: the last sequence of that device's entries it covers. Of
/// two sections of one device, the one with the higher head covers every entry the other does, and more. The totals
/// (``SummaryTotaliser``, and `analytics/pnl.sql` the same way) take, for every account and device, the section with
/// the highest head (then the latest `exportedAt`, then the signature, then the file name), so exports from any
/// devices at any time, merged or not, count every entry once.
///
/// ## Money, and the older formats
///
/// A `voicedebrief-account-summary-v3` summary (the current format) also carries, per device, its credit rows
/// (``SummaryCredit``: the openings, credit sold, simulated, taken back, reinstated) and money rows (``SummaryMoney``:
/// sales, refund steps and reinstatements per day, currency and storefront, worked out at export with the app's
/// money settings), and the ``commission`` used: what the money section of the P&L needs, with no transaction id,
/// receipt or token. A `voicedebrief-account-summary-v2` summary (before money) is still read: its sections count in
/// the feature lines as ever, and an account with a v2 section among those chosen is left out of the money and
/// counted as without it. Money is a new format rather than optional fields in v2, so that a summary with no money
/// rows is never taken for an account that sold nothing.
///
/// A `voicedebrief-account-summary-v1` summary (written before devices were kept apart) covers the whole account as
/// its data directory held it, with ``days`` and ``declines`` at the top and no devices. It is still read and
/// verified, but it cannot be combined with another summary: an account's latest v1 summary counts only while the
/// account has no v2 or v3 summary at all, and once one is there, every v1 summary of that account is superseded.
/// (Export again from each device to count every device.)
///
/// ## What a signature does not prove
///
/// The summary is signed with the head key (its public key inside), so an altered summary is refused. A summary made
/// up under a new key of its own cannot be told from a real account until there is a registry of accounts.
///
/// ## The JSON
///
/// ```json
/// { "format": "voicedebrief-account-summary-v3", "account": "<32 hex>", "exportedAt": "<ISO 8601>",
///   "publicKey": "<base64url DER SubjectPublicKeyInfo>", "costsArePlaceholders": true,
///   "commission": { "name": "small-business", "basisPoints": 1500 }, "moneyArePlaceholders": true,
///   "devices": [ { "device": "<32 hex>", "head": 7,
///     "days": [ { "day": "2026-11-29", "feature": "transcript", "charges": 2, "charged": 60000, "declined": 1,
///                 "givenBack": 30000, "cost": 9600 } ],
///     "declines": [ { "day": "2026-11-29", "feature": "transcript", "reason": "not-usable", "count": 1,
///                     "givenBack": 30000 } ],
///     "credit": [ { "day": "2026-11-20", "kind": "sold", "count": 1, "amount": 5000000 } ],
///     "money": [ { "day": "2026-11-20", "kind": "sale", "currency": "GBP", "storefront": "GBR", "taxKnown": true,
///                  "count": 1, "gross": 5000000, "tax": 833333, "commission": 625000, "proceeds": 3541667 } ] } ],
///   "signature": "<base64url raw r||s ECDSA P-256 over signedBytes>" }
/// ```
public struct AccountSummary: Sendable, Equatable, Codable {
    /// The format written: a section per device, with its credit and money rows.
    public static let formatName = "voicedebrief-account-summary-v3"
    /// The format before money was summarised, still read: a section per device, no credit or money rows. Its
    /// sections count in the feature lines as ever; its account's money is not known (see ``carriesMoney``).
    public static let deviceSectionsFormatName = "voicedebrief-account-summary-v2"
    /// The older format, still read: the whole account in one.
    public static let wholeAccountFormatName = "voicedebrief-account-summary-v1"

    public var format: String = AccountSummary.formatName
    /// The account's random id (see above).
    public var account: String
    /// When it was exported (ISO 8601, UTC, milliseconds): the tie-break between two sections of one head.
    public var exportedAt: String
    /// The head-signing public key, base64url of its DER SubjectPublicKeyInfo.
    public var publicKey: String
    /// Whether any cost figure was a placeholder.
    public var costsArePlaceholders: Bool
    /// The commission the money rows were worked out with (v3; nil before).
    public var commission: CommissionRate?
    /// Whether any money setting (the commission, the tax table) was a placeholder (v3; nil before).
    public var moneyArePlaceholders: Bool?
    /// Each device's own figures, by device pseudonym (the current format; nil in a v1 summary).
    public var devices: [SummaryDevice]?
    /// A v1 summary's rows, by day, then feature (nil in the current format).
    public var days: [SummaryDay]?
    /// A v1 summary's declines, by day, feature, then reason (nil in the current format).
    public var declines: [SummaryDecline]?
    /// Base64url raw r||s ECDSA P-256 signature over ``signedBytes``.
    public var signature: String

    /// A summary in the current format, with a section per device.
    public init(
        account: String, exportedAt: String, publicKey: String, costsArePlaceholders: Bool, devices: [SummaryDevice],
        signature: String = ""
    ) {
        self.account = account
        self.exportedAt = exportedAt
        self.publicKey = publicKey
        self.costsArePlaceholders = costsArePlaceholders
        self.devices = devices
        self.signature = signature
    }

    /// A summary in the older format (v1): the whole account's rows, no devices. Only read now, and made by tests.
    public static func makeWholeAccount(
        account: String, exportedAt: String, publicKey: String, costsArePlaceholders: Bool, days: [SummaryDay],
        declines: [SummaryDecline]
    ) -> AccountSummary {
        var summary = AccountSummary(
            account: account, exportedAt: exportedAt, publicKey: publicKey,
            costsArePlaceholders: costsArePlaceholders, devices: [])
        summary.format = wholeAccountFormatName
        summary.devices = nil
        summary.days = days
        summary.declines = declines
        return summary
    }

    /// Whether the summary carries each device's credit and money rows (v3): only then is its money counted.
    public var carriesMoney: Bool { format == AccountSummary.formatName }

    /// Whether this is a v1 summary, which covers the whole account and no device apart.
    public var coversWholeAccount: Bool { format == AccountSummary.wholeAccountFormatName }

    /// What the totals choose between: each device's section, or for a v1 summary one section of the whole account
    /// (device ``SummaryDevice/wholeAccount``, head 0).
    public var sections: [SummaryDevice] {
        if coversWholeAccount {
            return [
                SummaryDevice(device: SummaryDevice.wholeAccount, head: 0, days: days ?? [], declines: declines ?? [])
            ]
        }
        return devices ?? []
    }
}

/// One day and feature of a summary; amounts in whole micro-credits, positive.
public struct SummaryDay: Sendable, Equatable, Codable {
    /// `YYYY-MM-DD`, UTC.
    public var day: String
    public var feature: String
    public var charges: Int64
    public var charged: Int64
    public var declined: Int64
    public var givenBack: Int64
    /// What serving the day's charges cost, declined or not.
    public var cost: Int64

    public init(
        day: String, feature: String, charges: Int64, charged: Int64, declined: Int64, givenBack: Int64, cost: Int64
    ) {
        self.day = day
        self.feature = feature
        self.charges = charges
        self.charged = charged
        self.declined = declined
        self.givenBack = givenBack
        self.cost = cost
    }
}

/// The declines of one day and feature for one reason (its key, never the user's words).
public struct SummaryDecline: Sendable, Equatable, Codable {
    public var day: String
    public var feature: String
    public var reason: String
    public var count: Int64
    public var givenBack: Int64

    public init(day: String, feature: String, reason: String, count: Int64, givenBack: Int64) {
        self.day = day
        self.feature = feature
        self.reason = reason
        self.count = count
        self.givenBack = givenBack
    }
}
