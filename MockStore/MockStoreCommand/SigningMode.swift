import OptionParsing

/// How the mock store signs transactions (`--signing`).
public enum SigningMode: String, Sendable, CaseIterable, ChoiceWords {
    /// ES256 by the leaf of the store's own 3-certificate test CA (the default; what Apple's verifiers accept).
    case es256
    /// HS256 with a shared secret read from `--secret-file`.
    case hs256
    /// No signature (`alg` `none`): for tests that a client refuses such a transaction.
    case none
}
