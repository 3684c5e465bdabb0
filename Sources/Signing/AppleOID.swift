/// Object identifiers of the marker extensions in Apple's App Store signing chain (apple-store.md section 5).
public enum AppleOID {
    /// On the intermediate: Apple Worldwide Developer Relations Certification Authority.
    public static let intermediateMarker = "1.2.840.113635.100.6.2.1"
    /// On the leaf: Mac App Store and iTunes Store receipt signing.
    public static let leafMarker = "1.2.840.113635.100.6.11.1"
}
