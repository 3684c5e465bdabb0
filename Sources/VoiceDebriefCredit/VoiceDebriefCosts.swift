import CreditLedger

/// The app's cost list, beside ``VoiceDebriefPrices``: what serving each priced act costs, per unit of its price
/// (a transcript per started minute, a save per file), in micro-credits. The owner's view, for the P&L; the user's
/// credit screen never shows it.
///
/// Every figure is a placeholder until the owner has real bills to read them from. Speech-to-text and model calls
/// cost a fraction of a penny (a penny is 10,000 micro-credits); acts done on the device alone cost nothing to serve,
/// and say so with a written zero. A test fails if a priced key has no line here.
public struct VoiceDebriefCosts: CostList {
    public init() {}

    public let items: [CostItem] = [
        // Speech-to-text, a minute of audio: about half a penny at hosted-transcription rates.
        CostItem(key: "transcript", label: "Speech-to-text, a started minute", cost: MicroCredits(4_800)),
        // A model call that writes the debrief: a quarter of a penny.
        CostItem(key: "debrief", label: "A model call for the debrief", cost: MicroCredits(2_500)),
        CostItem(key: "cleanPassage", label: "A model call for a passage", cost: MicroCredits(800)),
        CostItem(key: "importFile", label: "Done on the device", cost: .zero),
        CostItem(key: "glossaryWord", label: "Done on the device", cost: .zero),
        CostItem(key: "createVault", label: "Done on the device", cost: .zero),
        CostItem(key: "addVault", label: "Done on the device", cost: .zero),
        CostItem(key: "saveToVault", label: "Done on the device, a file", cost: .zero),
        // A message through a relay.
        CostItem(key: "send", label: "Delivering to a recipient", cost: MicroCredits(50)),
        CostItem(key: "addRecipient", label: "Done on the device", cost: .zero),
        // Bytes moved to or from a server.
        CostItem(key: "pushVault", label: "Data moved to a server", cost: MicroCredits(100)),
        CostItem(key: "pullVault", label: "Data moved from a server", cost: MicroCredits(100)),
        CostItem(key: "addServer", label: "Done on the device", cost: .zero),
        CostItem(key: "readNote", label: "Done on the device", cost: .zero),
        CostItem(key: "readVaultFile", label: "Done on the device", cost: .zero),
        CostItem(key: "deleteNote", label: "Done on the device", cost: .zero),
        CostItem(key: "removeVault", label: "Done on the device", cost: .zero),
        CostItem(key: "removeServer", label: "Done on the device", cost: .zero),
        CostItem(key: "removeRecipient", label: "Done on the device", cost: .zero),
        CostItem(key: "removeWord", label: "Done on the device", cost: .zero),
    ]
}
