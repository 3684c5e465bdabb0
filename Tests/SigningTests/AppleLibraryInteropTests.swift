// Linux only: it needs OpenSSL-only parts of Signing (the test CA, certificate building, extensions by OID).
#if !canImport(CryptoKit)
    import Foundation
    import Signing
    import Testing

    /// Checks that Apple's own verifier (app-store-server-library for Python, `SignedDataVerifier`) accepts a signed
    /// transaction made with ``TestCertificateAuthority`` and ``CompactJWS``, as apple-store.md section 6 describes
    /// (Sandbox, online checks off, chain checked at the transaction's `signedDate`).
    @Suite(.enabled(if: AppleLibraryInterop.isAvailable, "python3 with app-store-server-library is not installed"))
    struct AppleLibraryInteropTests {}

    enum AppleLibraryInterop {
        static let isAvailable: Bool =
            (try? PythonInterop.runNow(script: "import appstoreserverlibrary.signed_data_verifier", arguments: [])
                .status)
            == 0

        static let script = #"""
            import sys
            from appstoreserverlibrary.models.Environment import Environment
            from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException

            root_der_path, bundle_id, compact = sys.argv[1], sys.argv[2], sys.argv[3]
            verifier = SignedDataVerifier([open(root_der_path, "rb").read()], False, Environment.SANDBOX, bundle_id)
            try:
                transaction = verifier.verify_and_decode_signed_transaction(compact)
            except VerificationException as error:
                print(f"rejected: {error.status.name}")
                sys.exit(3)
            print(f"accepted: {transaction.transactionId} {transaction.productId}")
            """#

        static let bundleID = "ai.voicedebrief.app"

        /// A transaction payload shaped like apple-store.md section 4, signed at `signedDate`.
        static func transaction(signedDate: Date) -> [UInt8] {
            let milliseconds = Int(signedDate.timeIntervalSince1970 * 1000)
            return Array(
                """
                {"transactionId":"2000000912345678","originalTransactionId":"2000000912345678",\
                "bundleId":"\(bundleID)","productId":"ai.voicedebrief.app.credit.500",\
                "purchaseDate":\(milliseconds),"originalPurchaseDate":\(milliseconds),"signedDate":\(milliseconds),\
                "quantity":1,"type":"Consumable","inAppOwnershipType":"PURCHASED","environment":"Sandbox",\
                "transactionReason":"PURCHASE","storefront":"GBR","price":5000,"currency":"GBP"}
                """.utf8
            )
        }

        static func verify(_ ca: TestCertificateAuthority, compact: String) async throws -> (
            status: Int32, output: String
        ) {
            let directory = try TemporaryDirectory()
            try ca.write(to: directory.path)
            return try await PythonInterop.run(
                script: script, arguments: [directory.file("root.der"), bundleID, compact])
        }
    }

    extension AppleLibraryInteropTests {
        @Test func appleVerifierAcceptsOurSignedTransaction() async throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start)
            let payload = AppleLibraryInterop.transaction(signedDate: TestDates.dayAfterStart)
            let compact = try CompactJWS.sign(
                payload: payload, with: .es256(key: ca.leafKey, x5c: ca.chain, keyID: nil))
            let result = try await AppleLibraryInterop.verify(ca, compact: compact)
            #expect(result.status == 0, "\(result.output)")
            #expect(
                result.output.contains("accepted: 2000000912345678 ai.voicedebrief.app.credit.500"), "\(result.output)")
        }

        /// The same check must be able to fail: a chain without the leaf marker is refused by Apple's verifier too.
        @Test func appleVerifierRejectsAChainWithoutTheLeafMarker() async throws {
            let ca = try TestCertificateAuthority.make(validFrom: TestDates.start, options: .init(leafMarker: false))
            let payload = AppleLibraryInterop.transaction(signedDate: TestDates.dayAfterStart)
            let compact = try CompactJWS.sign(
                payload: payload, with: .es256(key: ca.leafKey, x5c: ca.chain, keyID: nil))
            let result = try await AppleLibraryInterop.verify(ca, compact: compact)
            #expect(result.status == 3, "\(result.output)")
            #expect(result.output.contains("rejected: VERIFICATION_FAILURE"), "\(result.output)")
        }
    }
#endif
