import Signing

/// One device's own figures in a summary: the rows of the entries that device wrote (its charges, and its declines,
/// whoever's charge they decline), as far as the exporting data directory holds that device's file.
///
/// A device's file only ever grows, and a data directory holds a prefix of it, so ``head`` (the last sequence of the
/// device's entries covered) orders every section of one device: the higher head covers all the lower one does.
public struct SummaryDevice: Sendable, Equatable, Codable {
    /// The device of a v1 summary's one section: the whole account, which no pseudonym (32 hex digits) can be.
    public static let wholeAccount = "*"

    /// The device's pseudonym (``pseudonym(of:publicKey:)``), never its id.
    public var device: String
    /// The last sequence of this device's entries the section covers (1 or more).
    public var head: Int64
    /// By day, then feature.
    public var days: [SummaryDay]
    /// By day, feature, then reason.
    public var declines: [SummaryDecline]
    /// The credit given, sold and taken back, by day then kind (v3; nil in a v2 summary).
    public var credit: [SummaryCredit]?
    /// The money of top-ups and refund steps, by day, kind, currency, storefront (v3; nil in a v2 summary).
    public var money: [SummaryMoney]?

    public init(
        device: String, head: Int64, days: [SummaryDay], declines: [SummaryDecline], credit: [SummaryCredit]? = nil,
        money: [SummaryMoney]? = nil
    ) {
        self.device = device
        self.head = head
        self.days = days
        self.declines = declines
        self.credit = credit
        self.money = money
    }

    /// The pseudonym of device `id` in the account whose head-signing public key is `publicKey`: the first 128 bits
    /// of SHA-256("voicedebrief-summary-device-v1\n" || DER SubjectPublicKeyInfo || id), in lowercase hex. The same in
    /// every export of the account, so sections of one device meet; it does not give the id away (a random UUID).
    public static func pseudonym(of id: String, publicKey: P256PublicKey) -> String {
        let label = Array("voicedebrief-summary-device-v1\n".utf8)
        return Hex.encode(Array(SHA256.hash(label + publicKey.derRepresentation + Array(id.utf8)).prefix(16)))
    }

    /// Whether `text` has the form of a pseudonym: 32 lowercase hex digits.
    public static func isPseudonym(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
