import CreditLedger

/// The app's price list: every priced act, its key in the ledger and its placeholder price, in one place.
///
/// The owner's word (13 November 2026): "Just about everything in the app should cost a bit of money ... For now,
/// go for 1p increments." Every figure is a placeholder; a test fails if one is free or not a whole number of pence.
public struct VoiceDebriefPrices: PriceList {
    public init() {}

    public let items: [PriceItem] = [
        PriceItem(key: "transcript", label: "A transcript", price: p(3), unit: .perStartedMinute),
        PriceItem(key: "debrief", label: "A debrief", price: p(5)),
        PriceItem(key: "cleanPassage", label: "A clean text, a passage", price: p(1)),
        PriceItem(key: "importFile", label: "Opening an audio file", price: p(1)),
        PriceItem(key: "glossaryWord", label: "Adding one of your words", price: p(1)),
        PriceItem(key: "createVault", label: "Creating a vault", price: p(10)),
        PriceItem(key: "addVault", label: "Adding a vault made elsewhere", price: p(1)),
        PriceItem(
            key: "saveToVault", label: "Saving a note to a vault, a file", price: p(1), unit: .perItem(maximum: 4)),
        PriceItem(key: "send", label: "Sending a note to a recipient", price: p(1)),
        PriceItem(key: "addRecipient", label: "Adding a recipient", price: p(1)),
        PriceItem(key: "pushVault", label: "Pushing a vault to a server", price: p(1), unit: .whenSomethingMoved),
        PriceItem(key: "pullVault", label: "Pulling a vault from a server", price: p(1), unit: .whenSomethingMoved),
        PriceItem(key: "addServer", label: "Adding a server", price: p(1)),
        PriceItem(
            key: "readNote", label: "Opening a note to read it", price: p(1), oncePerSubjectPerSession: true,
            freeWhenAutomatic: true),
        PriceItem(key: "readVaultFile", label: "Opening a file in a vault", price: p(1)),
        PriceItem(key: "deleteNote", label: "Deleting a note", price: p(1)),
        PriceItem(key: "removeVault", label: "Forgetting a vault", price: p(1)),
        PriceItem(key: "removeServer", label: "Removing a server", price: p(1)),
        PriceItem(key: "removeRecipient", label: "Removing a recipient", price: p(1)),
        PriceItem(key: "removeWord", label: "Removing one of your words", price: p(1)),
    ]

    /// Acts that are never charged. Recording first: capture without loss is the app's first rule.
    public let neverCharged: [String: String] = [
        "record": "Recording is never charged: credit never stops, delays or interrupts a recording.",
        "discardRecording": "Discarding a recording that is still being made is never charged.",
        "listVault": "Listing a vault's contents is never charged.",
        "settings": "The settings are never charged.",
        "diagnostics": "Diagnostics are never charged.",
        "creditScreen": "The credit screen itself is never charged.",
    ]
}

/// Whole pence as micro-credits (a constant table, so a literal that overflowed would be a programming error).
private func p(_ pence: Int64) -> MicroCredits { MicroCredits(pence * 10_000) }
