import CreditLedger
import Payments
import TopUp

/// The app's side of the store: its bundle id, its packs and the pack its simulated store sells. Everything below
/// (`TopUp`, `Payments`) is given these and knows no app.
public enum VoiceDebriefStore {
    /// The app's bundle id: every transaction must carry it, unless the store configuration names another.
    public static let bundleID = "ai.voicedebrief.app"

    /// The app's packs: the owner's note says "One pack of £5.00". A second pack is one more line here and one more
    /// product with the same id in `Catalogue/Credit.storekit` (a test shows it, with a catalogue of its own).
    public static let packs = PackCatalogue(
        credits: [
            "ai.voicedebrief.app.credit.500": MicroCredits(5_000_000)
        ],
        defaultProduct: "ai.voicedebrief.app.credit.500")

    /// The one pack the simulated store sells: £5.00, no money taken.
    public static let simulatedPack = StoreProduct(
        id: packs.defaultProduct, type: .consumable, displayName: "£5 of credit",
        description: "£5.00 of credit (simulated: no money is taken)", displayPrice: "£5.00")

    /// The simulated store selling the app's pack; `makeReference` makes each payment's reference (for tests).
    public static func simulatedStore(makeReference: (@Sendable () -> String)? = nil) -> SimulatedStore {
        guard let makeReference else { return SimulatedStore(pack: simulatedPack) }
        return SimulatedStore(pack: simulatedPack, makeReference: makeReference)
    }
}
