import Foundation

/// PEM text (RFC 7468) for DER values whose encoding cannot fail: certificates and public keys.
enum PEM {
    /// Returns `der` as a PEM block with the given label, base64 in 64-character lines, ending in a newline.
    static func encode(label: String, der: [UInt8]) -> String {
        let base64 = Array(Data(der).base64EncodedString().utf8)
        var text = "-----BEGIN \(label)-----\n"
        var start = 0
        while start < base64.count {
            let end = min(start + 64, base64.count)
            text += String(decoding: base64[start..<end], as: UTF8.self)
            text += "\n"
            start = end
        }
        text += "-----END \(label)-----\n"
        return text
    }
}
