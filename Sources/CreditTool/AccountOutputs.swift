import CreditLedger

/// What the account commands print with `--json` (`join`, `devices`, `merge`), one type each.
enum AccountOutputs {
    /// `credit join`.
    struct Joined: Encodable {
        var device: String
        var devices: [String]
        var entries: Int
        var heads: Int
        var balance: Int64
    }

    /// One device of `credit devices` (`headSequence` only when there is a head).
    struct Device: Encodable {
        var id: String
        var entries: Int
        var lastSequence: Int64
        var hasFile: Bool
        var headPresent: Bool
        var headAgrees: Bool
        var head: String
        var headSequence: Int64?
        var isThisDevice: Bool

        init(_ device: DeviceSummary) {
            id = device.id
            entries = device.entries
            lastSequence = device.lastSequence
            hasFile = device.hasFile
            headPresent = device.headPresent
            headAgrees = device.headAgrees
            head = device.head.rawValue
            headSequence = device.headSequence
            isThisDevice = device.isThisDevice
        }
    }

    /// `credit merge`.
    struct Merged: Encodable {
        var added: [String: Int]
        var alreadyPresent: Int
        var problems: [String]
        var receiptsCountedOnce: [String]
        var headsKept: [String]
        var balance: Int64
    }
}
