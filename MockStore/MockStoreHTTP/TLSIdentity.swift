import Platform

/// What an HTTPS ``HTTPServer`` presents: its certificate (chain) and private key, as PEM text.
public struct TLSIdentity: Equatable, Sendable {
    /// One or more PEM `CERTIFICATE` blocks, the server's first.
    public var certificatePEM: String
    /// The server's private key, PEM.
    public var privateKeyPEM: String

    /// An identity from PEM text.
    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }
}

/// A ``TLSIdentity`` as C strings, which libmicrohttpd points at (it does not copy them) until the daemon is
/// stopped; freed when released, after the server that used them.
final class TLSMemory: @unchecked Sendable {
    // Written once in init, then only read (by libmicrohttpd): safe to share.
    let certificate: UnsafeMutablePointer<CChar>
    let privateKey: UnsafeMutablePointer<CChar>

    init(_ identity: TLSIdentity) {
        certificate = strdup(identity.certificatePEM)
        privateKey = strdup(identity.privateKeyPEM)
    }

    deinit {
        free(certificate)
        free(privateKey)
    }
}
