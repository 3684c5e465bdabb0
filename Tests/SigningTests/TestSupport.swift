import Foundation
import Signing
import Testing

/// Loads JSON vector files from the Vectors resource folder.
enum VectorFile {
    static func load<Value: Decodable>(_ name: String, as type: Value.Type) throws -> Value {
        let url = try #require(
            Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Vectors")
                ?? Bundle.module.url(forResource: name, withExtension: "json"),
            "vector file \(name).json is missing from the test bundle"
        )
        return try JSONDecoder().decode(Value.self, from: Data(contentsOf: url))
    }
}

/// Decodes hex test data, failing the test (not crashing) on a typo.
func hexBytes(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    try #require(Hex.decode(text), "not hex: \(text.prefix(40))", sourceLocation: sourceLocation)
}

/// Expects `body` to throw a `SigningError` with `code`, and returns it for further checks.
@discardableResult
func expectSigningError(
    _ code: SigningError.Code,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> SigningError? {
    do {
        try body()
        Issue.record("expected SigningError \(code), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as SigningError {
        #expect(error.code == code, "wrong code in: \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected SigningError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Fixed instants for certificate tests.
enum TestDates {
    /// 2025-01-01T00:00:00Z.
    static let start = Date(timeIntervalSince1970: 1_735_689_600)
    /// A day after `start`.
    static let dayAfterStart = start.addingTimeInterval(86_400)
}

/// The keys in Vectors/keys.json.
struct KeyVectors: Decodable {
    let p256PrivateKeyScalar: String
    let p256PublicKeyX963: String
    let p256Sec1PEM: String
    let p256Pkcs8PEM: String
    let p256EncryptedPkcs8PEM: String
    let p256SpkiPEM: String
    let p256ExplicitParametersSpkiDER: String
    let secp256k1Pkcs8PEM: String
    let secp256k1SpkiDER: String
    let p384SpkiDER: String

    static func load() throws -> KeyVectors {
        try VectorFile.load("keys", as: KeyVectors.self)
    }
}
