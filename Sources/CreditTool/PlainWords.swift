import AccountSummaries
import CreditLedger
import DurableFiles
import Foundation
import Payments
import Signing
import TopUp
import VoiceDebriefCredit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The words of an error no command explained itself, made from its type: a ``PlainWordsError`` says its own, a few
/// Foundation errors are said by their kind, and anything else is one generic sentence that names its type and
/// shows nothing of it (no source location, no Foundation error domain or code, no dump). Nothing is scrubbed.
enum PlainWords {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as any PlainWordsError: return error.plainWords
        case is DecodingError: return "something read cannot be understood: " + DecodingWords.describe(error)
        case is URLError: return "the network failed before the store answered"
        case let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile:
            return "there is no such file or directory"
        case is CocoaError: return "a file could not be read or written"
        default: return "an unexpected failure (\(type(of: error)))"
        }
    }
}

/// An error whose words a user may read as they are: each case says what happened, and its words are made from it
/// (its own `description`), with no source location, code or internal dump. The errors of the libraries `credit`
/// runs are declared so below, at the edge where their words are shown.
protocol PlainWordsError: Error {
    /// What happened, in words a user can act on.
    var plainWords: String { get }
}

extension PlainWordsError where Self: CustomStringConvertible {
    var plainWords: String { description }
}

extension SigningError: PlainWordsError {}
extension FileError: PlainWordsError {}
extension DataDirectoryError: PlainWordsError {}
extension LedgerError: PlainWordsError {}
extension EntryParseError: PlainWordsError {}
extension JoinError: PlainWordsError {}
extension MergeRefusal: PlainWordsError {}
extension SyncError: PlainWordsError {}
extension ChargeError: PlainWordsError {}
extension StoreError: PlainWordsError {}
extension StoreConfigurationError: PlainWordsError {}
extension ReceiptError: PlainWordsError {}
extension RefusedTransaction: PlainWordsError {}
extension PurchaseOutcomeUnknown: PlainWordsError {}
extension SummaryError: PlainWordsError {}
extension InputLimits.TooLong: PlainWordsError {}
