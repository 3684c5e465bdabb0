import Signing
import StoreWire

/// Why a receipt does not verify, in words for the user (never a source location).
public enum ReceiptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a compact JWS, or its payload is not a signed transaction.
    case malformed(String)
    /// Signed with an algorithm (`alg`) this store configuration does not accept.
    case algorithmNotAccepted(String)
    /// Its signature or certificate chain does not verify with any pinned root or secret.
    case signatureInvalid(String)
    /// Its certificate chain ends in another root than every one pinned here: the store's root certificate
    /// changed (a mock store started anew makes a new one), so the new root must be pinned to credit it.
    case rootChanged
    /// For another app.
    case wrongApp(expected: String, found: String)
    /// From another environment than this store's receipts must come from (a Sandbox receipt where Production is
    /// required, or the other way round).
    case wrongEnvironment(expected: AppStoreEnvironment, found: AppStoreEnvironment)

    public var description: String {
        switch self {
        case .malformed(let detail): return detail
        case .algorithmNotAccepted(let alg):
            return "it is signed with \(alg), which this store configuration does not accept"
        case .signatureInvalid(let detail): return detail
        case .rootChanged:
            return "it is signed under another root certificate than the one pinned here: the store's root "
                + "certificate changed"
        case .wrongApp(let expected, let found): return "it is for the app \(found), not \(expected)"
        case .wrongEnvironment(let expected, let found):
            return "its environment is \(found), not \(expected) as this store's receipts must be"
        }
    }

    /// What a lower layer's error says, without its code or source location.
    static func words(_ error: any Error) -> String {
        if let error = error as? SigningError { return error.message }
        if error is DecodingError { return DecodingWords.describe(error) }
        return "\(error)"
    }
}
