import Foundation
import Payments
import Signing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The words of an error no command explained itself: never a source location (`at File.swift:95`), a Foundation
/// error domain and code (`NSURLErrorDomain error -1001`) or Swift's dump of a decoding error.
enum PlainWords {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as SigningError: return error.message
        case is DecodingError: return "something read cannot be understood: " + DecodingWords.describe(error)
        case is URLError: return "the network failed before the store answered"
        case let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile:
            return "there is no such file or directory"
        case is CocoaError: return "a file could not be read or written"
        default:
            let text = "\(error)"
            return leaksInternals(text) ? "an unexpected failure (\(type(of: error)))" : text
        }
    }

    /// Whether `text` shows what a user must never read: a source location or a Foundation error code.
    static func leaksInternals(_ text: String) -> Bool {
        text.contains(".swift:") || text.contains("ErrorDomain") || text.contains("Error Domain=")
    }
}
