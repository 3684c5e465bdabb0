import CreditLedger

/// The app's price list: every priced act, its key in the ledger and its placeholder price, in one place.
///
/// The owner's word (13 November 2026): "Just about everything in the app should cost a bit of money ... For now,
/// go for 1p increments." Every figure is a placeholder; a test fails if one is free or not a whole number of pence.
public struct VoiceDebriefPrices: PriceList {
    public init() {}

    /// The owner's table, row for row: what (the label), the price in the note's words, the key; and each act's
    /// name in an entry, with what its quantity counts (`Transcript, 167 minutes`).
    public let items: [PriceItem] = [
        PriceItem(
            key: "transcript", label: "A transcript", price: p(3), unit: .perStartedMinute,
            wording: "3p a minute of audio; a started minute is a whole one", displayName: "Transcript",
            counted: CountNoun("minute", "minutes")),
        PriceItem(key: "debrief", label: "A debrief", price: p(5), displayName: "Debrief"),
        PriceItem(
            key: "cleanPassage", label: "A clean text", price: p(1), wording: "1p a passage",
            displayName: "Clean text of a passage"),
        PriceItem(key: "importFile", label: "Opening an audio file", price: p(1), displayName: "Audio file opened"),
        PriceItem(key: "glossaryWord", label: "Adding one of your words", price: p(1), displayName: "Word added"),
        PriceItem(key: "createVault", label: "Creating a vault", price: p(10), displayName: "Vault created"),
        PriceItem(key: "addVault", label: "Adding a vault made elsewhere", price: p(1), displayName: "Vault added"),
        PriceItem(
            key: "saveToVault", label: "Saving a note to a vault", price: p(1), unit: .perItem(maximum: 4),
            wording: "1p a file (a note is up to four)", displayName: "Note saved to a vault",
            counted: CountNoun("file", "files")),
        PriceItem(
            key: "send", label: "Sending a note to a recipient", price: p(1), displayName: "Note sent to a recipient"),
        PriceItem(key: "addRecipient", label: "Adding a recipient", price: p(1), displayName: "Recipient added"),
        PriceItem(
            key: "pushVault", label: "Pushing a vault to a server", price: p(1), unit: .whenSomethingMoved,
            wording: "1p, when something was sent", displayName: "Vault pushed to a server",
            counted: CountNoun("item sent", "items sent")),
        PriceItem(
            key: "pullVault", label: "Pulling a vault from a server", price: p(1), unit: .whenSomethingMoved,
            wording: "1p, when something was fetched", displayName: "Vault pulled from a server",
            counted: CountNoun("item fetched", "items fetched")),
        PriceItem(key: "addServer", label: "Adding a server", price: p(1), displayName: "Server added"),
        PriceItem(
            key: "readNote", label: "Opening a note to read it", price: p(1), oncePerSubjectPerSession: true,
            freeWhenAutomatic: true, wording: "1p, once for each note while the app is open",
            displayName: "Note opened to read"),
        PriceItem(
            key: "readVaultFile", label: "Opening a file in a vault", price: p(1), displayName: "Vault file opened"),
        PriceItem(key: "deleteNote", label: "Deleting a note", price: p(1), displayName: "Note deleted"),
        PriceItem(key: "removeVault", label: "Forgetting a vault", price: p(1), displayName: "Vault forgotten"),
        PriceItem(
            key: "removeServer", label: "Removing a server", price: p(1), displayName: "Server removed",
            sharedRow: removing),
        PriceItem(
            key: "removeRecipient", label: "Removing a recipient", price: p(1), displayName: "Recipient removed",
            sharedRow: removing),
        PriceItem(
            key: "removeWord", label: "Removing one of your words", price: p(1), displayName: "Word removed",
            sharedRow: removing),
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

/// The owner's one line for the three removals.
private let removing = "Removing a server, a recipient or one of your words"

/// Whole pence as micro-credits (a constant table, so a literal that overflowed would be a programming error).
private func p(_ pence: Int64) -> MicroCredits { MicroCredits(pence * 10_000) }
