/// The protected header of a compact JWS (RFC 7515 section 4), limited to the parameters this system uses.
public struct JWSHeader: Codable, Sendable, Equatable {
    /// The signature algorithm: "HS256", "ES256", or "none" (which no verify function accepts).
    public var alg: String
    /// The media type, "JWT" for App Store transactions.
    public var typ: String?
    /// The key identifier (Xcode's StoreKit testing uses "Apple_Xcode_Key").
    public var kid: String?
    /// The certificate chain `[leaf, intermediate, root]`, each entry standard base64 (with padding) of DER.
    public var x5c: [String]?

    /// Creates a header; absent members are omitted when encoded.
    public init(alg: String, typ: String? = nil, kid: String? = nil, x5c: [String]? = nil) {
        self.alg = alg
        self.typ = typ
        self.kid = kid
        self.x5c = x5c
    }

    /// The header as compact JSON with members in a fixed order (alg, typ, kid, x5c), absent ones omitted.
    ///
    /// Written by hand because `JSONEncoder` neither fixes member order on every platform nor leaves "/" unescaped
    /// without options; a stable byte form keeps signed output reproducible.
    func compactJSON() -> [UInt8] {
        var members = ["\"alg\":\(Self.quoted(alg))"]
        if let typ {
            members.append("\"typ\":\(Self.quoted(typ))")
        }
        if let kid {
            members.append("\"kid\":\(Self.quoted(kid))")
        }
        if let x5c {
            members.append("\"x5c\":[\(x5c.map(Self.quoted).joined(separator: ","))]")
        }
        return Array("{\(members.joined(separator: ","))}".utf8)
    }

    /// A JSON string literal (RFC 8259 section 7): quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
