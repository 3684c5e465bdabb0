import Testing

@testable import Signing

/// OpenSSL's clean-up at exit freed locks that other threads were still in (a StoreKit example's test process
/// crashed after its last test passed); the library initialises OpenSSL at load without it.
@Suite struct OpenSSLLifetimeTests {
    @Test func openSSLIsInitialisedAtLoadWithoutCleanUpAtExit() {
        #expect(FetchedAlgorithms.keepsOpenSSLUntilExit)
    }
}
