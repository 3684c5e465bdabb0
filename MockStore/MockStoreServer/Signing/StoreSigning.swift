import MockStoreHTTP
import StoreWire

/// How the store signs what it hands out: the device API's transactions and app transaction (with the device's
/// verification fields, as StoreKit's `jwsRepresentation` has them), and servers' copies (without them).
public struct StoreSigning: Sendable {
    let configuration: MockStore.Configuration
    /// The app transaction of each customer, for `appTransactionId` in what is signed.
    let customerAppTransactions: CustomerAppTransactions

    private var nowMilliseconds: Int64 { configuration.clock.now().millisecondsSince1970 }

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

    // MARK: Renewal info

    /// Apple's `JWSRenewalInfoDecodedPayload` for `state`.
    public func renewalInfoPayload(_ state: SubscriptionState, signedDate: Int64) -> RenewalInfoPayload {
        let offer = state.status == .expired || state.status == .revoked ? nil : state.nextOffer
        var payload = RenewalInfoPayload(
            originalTransactionId: state.originalTransactionId, autoRenewProductId: state.autoRenewProductId,
            productId: state.productId, autoRenewStatus: state.autoRenewEnabled ? .on : .off,
            expirationIntent: state.status == .expired || state.status == .billingRetry ? state.expirationIntent : nil,
            isInBillingRetryPeriod: state.isInBillingRetryPeriod, priceIncreaseStatus: state.priceIncreaseStatus,
            gracePeriodExpiresDate: state.gracePeriodExpiresDate, offerType: offer?.offerType,
            offerIdentifier: offer?.offerIdentifier, offerDiscountType: offer?.offerDiscountType,
            offerPeriod: offer?.offerPeriod, signedDate: signedDate, environment: configuration.environment,
            recentSubscriptionStartDate: state.recentSubscriptionStartDate, renewalDate: state.expiresDate,
            currency: state.currency, renewalPrice: state.renewalPrice, appAccountToken: state.appAccountToken,
            appTransactionId: String(customerAppTransactions.current.id))
        payload.eligibleWinBackOfferIds = eligibleWinBackOfferIds(state)
        return payload
    }

    /// The renewal info signed for a server (`device` false) or for the device API.
    func signRenewalInfo(_ state: SubscriptionState, signedDate: Int64? = nil, device: Bool = false) throws -> String {
        let payload = renewalInfoPayload(state, signedDate: signedDate ?? nowMilliseconds)
        let signer = device ? configuration.signer : (configuration.serverSigner ?? configuration.signer)
        return try signer.sign(json: try HTTPResponse.encode(payload))
    }

    /// Renewal info's `eligibleWinBackOfferIds`: the win-back offers of the lapsed subscription's product, in the
    /// catalogue's order; none while it is in force, in a grace period or billing retry, or was shared.
    func eligibleWinBackOfferIds(_ state: SubscriptionState) -> [String]? {
        guard state.status == .expired || state.status == .revoked, state.isFamilyShared != true else { return nil }
        let ids = configuration.catalogue.product(id: state.productId)?.subscription?.winBackOffers.compactMap(\.id)
        return ids?.isEmpty == false ? ids : nil
    }
}
