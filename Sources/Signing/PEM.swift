import Foundation

/// PEM text (RFC 7468): written for DER values whose encoding cannot fail (certificates and public keys), and read
/// where the platform's own reader is not used (the Apple side, over CryptoKit and Security).
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

    /// Returns the DER of the first PEM block labelled `label` in `text` (other blocks before it are skipped, as
    /// OpenSSL's PEM readers skip them), or nil if there is none or its base64 does not decode.
    ///
    /// Whitespace between the lines is ignored; headers (`Proc-Type:`, encrypted PEM) are not base64 and are refused.
    static func decode(label: String, from text: String) -> [UInt8]? {
        guard let begin = text.range(of: "-----BEGIN \(label)-----"),
            let end = text.range(of: "-----END \(label)-----", range: begin.upperBound..<text.endIndex)
        else {
            return nil
        }
        let base64 = String(text[begin.upperBound..<end.lowerBound].filter { !$0.isWhitespace })
        guard !base64.isEmpty, let der = Data(base64Encoded: base64) else {
            return nil
        }
        return Array(der)
    }
}
