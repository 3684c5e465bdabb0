import CreditLedger
import VoiceDebriefCredit

/// What the ledger commands print with `--json` (`balance`, `charge`, `takings`, `prices`, `run`, `verify`,
/// `upgrade`), one type each.
enum LedgerOutputs {
    /// `credit balance`.
    struct Balance: Encodable {
        var balance: Int64
        var formatted: String
    }

    /// `credit charge` of an act that is not charged.
    struct NotCharged: Encodable {
        var charged = false
        var reason: String
        var key: String
    }

    /// One feature's takings.
    struct Takings: Encodable {
        var feature: String
        var charges: Int
        var charged: Int64
        var declined: Int
        var givenBack: Int64
        var net: Int64

        init(_ line: FeatureTakings) {
            feature = line.feature
            charges = line.charges
            charged = line.charged.rawValue
            declined = line.declined
            givenBack = line.givenBack.rawValue
            net = line.net.rawValue
        }
    }

    /// One item of the price list.
    struct Price: Encodable {
        var key: String
        var label: String
        var name: String
        var price: Int64
        var unit: String
        var placeholder: Bool
    }

    /// `credit run`: each act, and the balance after them all.
    struct Acts: Encodable {
        struct Act: Encodable {
            var line: Int
            var key: String
            var entry: EntryJSON?
            var notCharged: String?
        }
        var acts: [Act]
        var balance: Int64
    }

    /// `credit verify`.
    struct Verification: Encodable {
        struct Problem: Encodable {
            var kind: String
            var file: String
            var detail: String
            var line: Int?
        }
        var ok: Bool
        var entriesChecked: Int
        var devices: [String]
        var balance: Int64
        var receiptsChecked: Int
        var simulatedTopUps: Int
        var notes: [String]
        var problems: [Problem]
    }

    /// `credit upgrade`.
    struct Upgrade: Encodable {
        var upgraded: Bool
        var entriesSigned: Int?
        var file: String?
        var backup: String?
    }

    /// A file a command wrote (`report`, `export`), and the account it is of.
    struct Written: Encodable {
        var written: String
        var account: String?
    }
}
