import CreditLedger
import DurableFiles
import Payments
import Signing
import TopUp

/// A failure a `credit` command explains (exit 1): each case what went wrong, its words made here, once, whole
/// (no full stop patched on later). A library's own error is carried as it is and said in its own words.
enum CreditFailure: Error, Equatable, CustomStringConvertible {
    // The data directory.
    /// No `--data-dir`, no `$CREDIT_DATA_DIR`, `$XDG_DATA_HOME` or home directory.
    case noHomeDirectory
    /// `CREDIT_NOW` is not an ISO 8601 time.
    case badNow(String)
    /// A command about an account that exists, on a data directory that holds none: what it would have lacked.
    case noAccount(directory: String, lacking: String)
    /// The scratch directory a reading command shows a new account from cannot be made.
    case noScratchDirectory

    // Files.
    /// A file the command needs cannot be read.
    case cannotRead(path: String)
    /// A file given to check is not there.
    case noSuchFile(path: String)
    /// `what` (the page, the summary) cannot be written to `path`, for `why`.
    case cannotWrite(what: String, path: String, why: String)
    /// A key or secret file refused (others can read it, it holds no key): the signing library's words.
    case keyFile(SigningError)
    /// The Server API key in `file` cannot be used.
    case unusableAPIKey(file: String, SigningError)

    // Charges.
    /// An act that is never charged (recording, say).
    case neverCharged(ChargeError)
    /// Line `line` of `credit run`'s `source` failed as `failure` says: nothing was charged.
    indirect case actLine(source: String, line: Int, CreditFailure)

    // Accounts and syncing.
    case join(JoinError)
    case mergeRefused(MergeRefusal)
    /// A file of a merge could not be read: nothing was merged.
    case mergeFile(FileError)
    case sync(SyncError)

    // The store.
    case storeConfiguration(StoreConfigurationError)
    /// `CREDIT_STORE_TIMEOUT` is not a number of seconds in range.
    case badStoreTimeout(String)
    /// The store refused the purchase's transaction (its signature, its product, its environment).
    case purchaseRefused(RefusedTransaction)
    /// The purchase was sent and no answer came: it may have been paid.
    case purchaseOutcomeUnknown(PurchaseOutcomeUnknown)
    /// A top-up never reached the store, or the store refused it: nothing was bought.
    case topUpFailed(StoreError)
    /// Collecting stopped at the store's failure: what was credited stays credited.
    case collectStopped(StoreError)
    /// The store's history could not be read: nothing was compared.
    case reconcileFailed(StoreError)
    /// `credit reconcile` on a store with no Server API.
    case noServerAPI
    /// `credit reconcile` with no store root pinned.
    case noPinnedRoot
    /// `credit reconcile` without `--transaction` on a ledger with no purchase through the mock store.
    case noPurchaseToLookUp

    // The P&L.
    case noPeriod(String)
    /// The summaries in `directory` cannot be read, `why`.
    case unreadableSummaries(directory: String, why: String)
    /// `directory` holds no summary (`nothingThere`), or none could be counted.
    case nothingToTotal(directory: String, nothingThere: Bool)
    /// The head key that signs a summary cannot be loaded, `why`.
    case noHeadKey(why: String)

    var description: String {
        switch self {
        case .noHomeDirectory, .badNow, .noAccount, .noScratchDirectory: dataDirectoryWords
        case .cannotRead, .noSuchFile, .cannotWrite, .keyFile, .unusableAPIKey: fileWords
        case .neverCharged(let error): error.description
        case .actLine(let source, let line, let failure): "\(source) line \(line): \(failure); nothing was charged"
        case .join, .mergeRefused, .mergeFile, .sync: accountWords
        case .storeConfiguration, .badStoreTimeout, .purchaseRefused, .purchaseOutcomeUnknown, .topUpFailed,
            .collectStopped, .reconcileFailed, .noServerAPI, .noPinnedRoot, .noPurchaseToLookUp:
            storeWords
        case .noPeriod, .unreadableSummaries, .nothingToTotal, .noHeadKey: pnlWords
        }
    }

    /// The store's failure this one says in its own words, when it is one: what a caller tells apart by its case,
    /// never by the words.
    var storeError: StoreError? {
        switch self {
        case .topUpFailed(let error), .collectStopped(let error), .reconcileFailed(let error): error
        default: nil
        }
    }

    private var dataDirectoryWords: String {
        switch self {
        case .noHomeDirectory: "there is no home directory to keep the credit in: give --data-dir DIR"
        case .badNow(let now): "CREDIT_NOW must look like 2026-11-29T18:06:49.123Z, not \"\(now)\""
        case .noAccount(let directory, let lacking):
            "no account exists in \(directory): \(lacking). Is --data-dir (or CREDIT_DATA_DIR) the right place?"
        default: "cannot make a scratch directory to show a new account in"
        }
    }

    private var fileWords: String {
        switch self {
        case .cannotRead(let path): "cannot read \(path)"
        case .noSuchFile(let path): "cannot read \(path): no such file"
        case .cannotWrite(let what, let path, let why): "cannot write \(what) to \(path): \(why); nothing was written"
        case .keyFile(let error): error.message
        case .unusableAPIKey(let file, let error): "the API key \(file) cannot be used: \(error.message)"
        default: ""
        }
    }

    private var accountWords: String {
        switch self {
        case .join(let error): error.description
        case .mergeRefused(let refusal): refusal.description
        case .mergeFile(let error): "\(error.plainWords); nothing was merged"
        case .sync(let error): error.description
        default: ""
        }
    }

    private var storeWords: String {
        switch self {
        case .storeConfiguration(let error): error.description
        case .badStoreTimeout(let text):
            "CREDIT_STORE_TIMEOUT must be a number of seconds above 0 and at most 3600, not \"\(text)\""
        case .purchaseRefused(let refused): refused.description
        case .purchaseOutcomeUnknown(let unknown):
            "The purchase of \(unknown.packName) may have gone through: it was sent to the store, and "
                + "\(unknown.detail). If it was paid, opening the credit screen or `credit collect` will credit "
                + "it, once; look there before buying again."
        case .topUpFailed(let error): error.sentence + " Nothing was bought."
        case .collectStopped(let error):
            error.sentence + " Collecting stopped there: anything credited stays credited, and the next collect "
                + "carries on, crediting nothing twice."
        case .reconcileFailed(let error): error.sentence + " Nothing was compared, and nothing was changed."
        case .noServerAPI:
            "reconcile needs a store with a Server API: `credit store use mockstore --url URL --root-certificate "
                + "FILE` first"
        case .noPinnedRoot: "no store root is pinned to verify the Server API's signed transactions with"
        default:
            "the ledger holds no purchase through the mock store to look the store's history up by: give "
                + "--transaction ID (the id of any of your purchases)"
        }
    }

    private var pnlWords: String {
        switch self {
        case .noPeriod(let name): "no period \(name) in the P&L"
        case .unreadableSummaries(let directory, let why): "cannot read the summaries in \(directory): \(why)"
        case .nothingToTotal(let directory, nothingThere: true):
            "there are no summaries in \(directory) (no .json file): nothing to total"
        case .nothingToTotal(let directory, nothingThere: false):
            "no summary in \(directory) could be counted (each is named above): nothing to total"
        case .noHeadKey(let why): "cannot load this ledger's head key to sign the summary: \(why)"
        default: ""
        }
    }
}
