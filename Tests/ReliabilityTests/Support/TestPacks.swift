import CreditLedger
import TopUp
import VoiceDebriefCredit

/// Packs of the suites' own: the app's one pack and one more line, for sequences that buy either (the app sells
/// one pack, and the note's "a second pack is one more line" is what this shows).
enum TestPacks {
    static let twoPacks = PackCatalogue(
        credits: VoiceDebriefStore.packs.credits.merging(
            ["ai.voicedebrief.app.credit.1000": MicroCredits(10_000_000)], uniquingKeysWith: { first, _ in first }),
        defaultProduct: VoiceDebriefStore.packs.defaultProduct)
}
