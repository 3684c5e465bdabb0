// libFuzzer target: the compact JWS parser (CompactJWS.parse) and its verification, as receipts are read.
//
// Must hold for any bytes: no trap, no hang; a parsed JWS signs exactly the input's first two parts; HS256 verifies
// only when HMAC-SHA256 of those bytes with the secret is the signature; ES256 never verifies against a chain the
// input cannot have been signed by (a CA made fresh for this run).
import Foundation
import Signing

let secret: [UInt8] = Array("fuzz-store-secret-0123456789abcdef".utf8)
let authority = try! TestCertificateAuthority.make(validFrom: Date(timeIntervalSince1970: 1_700_000_000))
let chain = CertificateChainVerifier(trustedRoot: authority.root)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let jws = try? CompactJWS.parse(text) else { return 0 }
    let input = Array(text.utf8)
    let dots = input.indices.filter { input[$0] == UInt8(ascii: ".") }
    precondition(dots.count == 2, "parsed a JWS without exactly three parts")
    precondition(jws.signingInput == Array(input[..<dots[1]]), "the signing input is not the input's first two parts")
    let expected = try! HMACSHA256.authenticationCode(for: jws.signingInput, key: secret)
    let hs256 = (try? jws.verifyHS256(secret: secret)) != nil
    if hs256 && (jws.header.alg != "HS256" || jws.signature != expected) {
        fatalError("HS256 accepted a signature that is not the HMAC of the signing input")
    }
    if (try? jws.verifyES256(chain: chain, at: Date(timeIntervalSince1970: 1_800_000_000))) != nil {
        fatalError("ES256 accepted a JWS against a CA made after it")
    }
    return 0
}
