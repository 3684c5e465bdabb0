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

/// A file-system failure as a user reads it: "cannot open PATH: there is no such file or folder", the call in words
/// and the system's reason in plain ones (no call name, no error number). A refusal of a link or of something that
/// is not a regular file says so as it is.
extension FileError: PlainWordsError {
    var plainWords: String {
        if found != nil || isSymbolicLink { return description }
        // Refused unread for its size (a head, an account file): not the system's "file too large" of a write.
        if operation == .read && errno == EFBIG { return "cannot read \(path): it is larger than such a file can be" }
        return "cannot \(FileError.verbs[operation] ?? operation.rawValue) \(path): \(FileError.reason(errno))"
    }

    /// What each call was doing, in words.
    private static let verbs: [Operation: String] = [
        .open: "open", .create: "create", .read: "read", .write: "write to", .stat: "look at", .lstat: "look at",
        .fstat: "look at", .opendir: "list the folder", .mkdir: "make the folder", .chmod: "set the permissions of",
        .truncate: "cut back", .rename: "put in place", .lock: "lock", .fsync: "save to disk",
        .fdatasync: "save to disk", .openForAppend: "open for appending", .openLockFile: "open the lock file",
        .openDirectory: "open the folder", .fsyncDirectory: "save to disk the folder",
        .removeDirectory: "remove the folder",
    ]

    /// Why, in plain words: the common reasons said as a person would, any other as the system words it.
    static func reason(_ errno: Int32) -> String {
        switch errno {
        case ENOENT: return "there is no such file or folder"
        case EACCES, EPERM: return "permission denied (this user may not)"
        case EISDIR: return "it is a folder"
        case ENOTDIR: return "a part of the path is not a folder"
        case ENOSPC: return "the disk is full"
        case EDQUOT: return "the disk quota is used up"
        case EROFS: return "the file system is read-only"
        case EEXIST: return "something is already there"
        default:
            let words = String(cString: strerror(errno))
            return words.prefix(1).lowercased() + words.dropFirst()
        }
    }
}
