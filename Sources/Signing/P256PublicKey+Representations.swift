// Shared by both sides (OpenSSL on Linux, CryptoKit on Apple platforms): what follows from the key's DER alone.
extension P256PublicKey {
    /// The fixed DER prefix of a named-curve P-256 SubjectPublicKeyInfo, up to the uncompressed point.
    static let spkiPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48,
        0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// Creates a key from the uncompressed X9.63 point `04 || x || y` (65 bytes), as a JWK's `x` and `y` give it.
    public convenience init(x963Representation: [UInt8]) throws {
        guard x963Representation.count == 65, x963Representation.first == 0x04 else {
            throw SigningError.invalidKey(.badPoint(bytes: x963Representation.count))
        }
        try self.init(derRepresentation: Self.spkiPrefix + x963Representation)
    }

    /// The SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    public var pemRepresentation: String {
        PEM.encode(label: "PUBLIC KEY", der: derRepresentation)
    }

    /// The uncompressed point `04 || x || y` (the last 65 bytes of the named-curve SubjectPublicKeyInfo).
    public var x963Representation: [UInt8] {
        Array(derRepresentation.suffix(65))
    }
}
