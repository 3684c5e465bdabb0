import MockStoreHTTP
import StoreWire

/// How the store signs what it hands out: the device API's transactions and app transaction (with the device's
/// verification fields, as StoreKit's `jwsRepresentation` has them), and servers' copies (without them).
extension MockStore {
    /// `transaction` signed now for the device API: with `device`'s verification fields (none for a test control,
    /// `device` nil); a simulated verification failure makes it unverifiable.
    func sign(
        _ transaction: StoredTransaction, verification: StoreKitFailure? = nil, device: DeviceVerification? = nil
    ) throws -> String {
        var payload = transactionPayload(transaction)
        if let device {
            (payload.deviceVerification, payload.deviceVerificationNonce) = device.stamp()
        }
        let signed = try configuration.signer.sign(payload)
        return verification.map { UnverifiableJWS.make(from: signed, failure: $0) } ?? signed
    }

    /// `transaction` signed now for a server (Server API answers, notifications): never tampered with.
    func serverSign(_ transaction: StoredTransaction) throws -> String {
        try notificationSigner.sign(transactionPayload(transaction))
    }

    /// What ``serverSign(_:)`` would sign now, as the JSON it signs (a notification's, signed later).
    func serverClaims(_ transaction: StoredTransaction) throws -> [UInt8] {
        try HTTPResponse.encode(transactionPayload(transaction))
    }

    /// Who signs for servers: notifications and the Server API's transactions.
    var notificationSigner: any TransactionSigner { configuration.serverSigner ?? configuration.signer }

    /// The app transaction of the customer acted for, signed now: for the device API with `device`'s verification
    /// fields, for the Server API (`device` nil) without them and always by the test CA.
    func signAppTransaction(device: DeviceVerification?, verification: StoreKitFailure? = nil) throws -> String {
        var payload = appTransactionPayload()
        let signer: any TransactionSigner
        if let device {
            (payload.deviceVerification, payload.deviceVerificationNonce) = device.stamp()
            signer = configuration.signer
        } else {
            signer = configuration.serverSigner ?? configuration.signer
        }
        let signed = try signer.sign(json: try HTTPResponse.encode(payload))
        return verification.map { UnverifiableJWS.make(from: signed, failure: $0) } ?? signed
    }

    /// The app transaction's payload, stamped now (Apple's `JWSAppTransactionDecodedPayload`).
    func appTransactionPayload() -> AppTransactionPayload {
        let customer = customerAppTransactions.current
        let now = configuration.clock.now().millisecondsSince1970
        return AppTransactionPayload(
            receiptType: configuration.environment, appAppleId: configuration.appAppleIdInAnswers,
            bundleId: configuration.bundleId, applicationVersion: configuration.bundleVersion,
            versionExternalIdentifier: configuration.isProduction ? nil : 0, receiptCreationDate: now,
            originalPurchaseDate: customer.originalPurchaseDate,
            originalApplicationVersion: configuration.bundleVersion, appTransactionId: String(customer.id),
            originalPlatform: .iOS, signedDate: now)
    }

    private func transactionPayload(_ transaction: StoredTransaction) -> SignedTransactionPayload {
        var payload = transaction.signedPayload(
            bundleId: configuration.bundleId, signedDate: configuration.clock.now().millisecondsSince1970,
            environment: configuration.environment)
        payload.appTransactionId = String(customerAppTransactions.record(for: transaction.customerId).id)
        return payload
    }
}
