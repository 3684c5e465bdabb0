/// What a client of a sandbox store needs beside the device API, and may call in production code: no test control.
public enum SandboxAPI {
    /// The store's test root certificate (DER): the one to trust when checking what it signs.
    public static let rootCertificate = Endpoint<NoBody, BinaryBody, NoParameters>(
        .get, "/test/v1/root-certificate")
}
