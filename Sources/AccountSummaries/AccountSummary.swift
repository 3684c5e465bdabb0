import CreditLedger

/// What one account may share of its figures, for the P&L of all accounts together (`credit export --summary`):
/// per day and feature, how many charges and declines and how much was charged, given back and spent serving them,
/// and the declines by reason. No subject, entry id, text or device id is in it; the account is a random id.
///
/// ## The account id
///
/// ``account`` is the first 128 bits of SHA-256 over a fixed label and the account's head-signing public key, in hex
/// (``accountID(for:)``). The head key is made once for an account and shared by its devices, so the id is the same in
/// every export of the account (a later export supersedes an earlier one); it is random, since the key is; and it
/// names no person. Being derived from the public key inside the summary, it is checked by anyone: a summary that
/// claims another account's id under a key of its own does not verify, so it cannot supersede that account's real
/// summary. (An HMAC of a label under the ledger key would be as stable and as random, but nobody else could check
/// it.)
///
/// ## What a signature does not prove
///
/// The summary is signed with the head key (its public key inside), so an altered summary is refused. A summary made
/// up under a new key of its own cannot be told from a real account until there is a registry of accounts.
///
/// ## The JSON
///
/// ```json
/// { "format": "voicedebrief-account-summary-v1", "account": "<32 hex>", "exportedAt": "<ISO 8601>",
///   "publicKey": "<base64url DER SubjectPublicKeyInfo>", "costsArePlaceholders": true,
///   "days": [ { "day": "2026-11-29", "feature": "transcript", "charges": 2, "charged": 60000, "declined": 1,
///               "givenBack": 30000, "cost": 9600 } ],
///   "declines": [ { "day": "2026-11-29", "feature": "transcript", "reason": "not-usable", "count": 1,
///                   "givenBack": 30000 } ],
///   "signature": "<base64url raw r||s ECDSA P-256 over signedBytes>" }
/// ```
public struct AccountSummary: Sendable, Equatable, Codable {
    public static let formatName = "voicedebrief-account-summary-v1"

    public var format: String = AccountSummary.formatName
    /// The account's random id (see above).
    public var account: String
    /// When it was exported (ISO 8601, UTC, milliseconds): the latest per account counts.
    public var exportedAt: String
    /// The head-signing public key, base64url of its DER SubjectPublicKeyInfo.
    public var publicKey: String
    /// Whether any cost figure was a placeholder.
    public var costsArePlaceholders: Bool
    /// By day, then feature.
    public var days: [SummaryDay]
    /// By day, feature, then reason.
    public var declines: [SummaryDecline]
    /// Base64url raw r||s ECDSA P-256 signature over ``signedBytes``.
    public var signature: String

    public init(
        account: String, exportedAt: String, publicKey: String, costsArePlaceholders: Bool, days: [SummaryDay],
        declines: [SummaryDecline], signature: String = ""
    ) {
        self.account = account
        self.exportedAt = exportedAt
        self.publicKey = publicKey
        self.costsArePlaceholders = costsArePlaceholders
        self.days = days
        self.declines = declines
        self.signature = signature
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
