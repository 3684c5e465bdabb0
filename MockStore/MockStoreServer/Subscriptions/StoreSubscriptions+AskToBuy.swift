import MockStoreSQLite
import StoreKitCatalogue
import StoreWire

/// Ask to Buy and interrupted purchases of subscriptions: the purchase waits as any other does (a pending row,
/// not signed); approving or resolving it makes that row the subscription's first transaction, as the lifecycle
/// says (SUBSCRIBED, dated then), and it reaches the app through the updates feed.
extension StoreSubscriptions {
    /// A waiting purchase being settled: its row and the change it is logged as.
    struct PendingSettlement {
        var id: String
        var kind: TransactionChange.Kind
    }

    /// Whether a purchase of `product` waits (Ask to Buy or an interrupted purchase) rather than subscribing now:
    /// only a new subscription waits; a change of plan in a group in force happens at once.
    func subscriptionPurchaseWaits(_ request: PurchaseRequestBody, groupId: String?, _ database: TransactionStore)
        throws -> Bool
    {
        guard try settings.askToBuy(for: request, database) || settings.interruptedPurchasesEnabled(database) else {
            return false
        }
        guard let groupId, let state = try database.subscriptionState(groupId: groupId) else { return true }
        return !(state.status == .active || state.status == .billingGracePeriod)
    }

    /// Approves or resolves the waiting subscription purchase `pending`.
    func settlePendingSubscription(
        _ pending: StoredTransaction, kind: TransactionChange.Kind, _ database: TransactionStore
    )
        throws -> StoredTransaction
    {
        guard let product = configuration.catalogue.product(id: pending.productId) else {
            throw MockStoreError.invalidProductId(pending.productId)
        }
        return try subscribeOrChange(
            product, PurchaseRequestBody(productId: pending.productId, appAccountToken: pending.appAccountToken),
            database, origin: pending.origin, settling: PendingSettlement(id: pending.id, kind: kind))
    }

    /// The waiting row made into the transaction `new` describes.
    func settle(_ pending: PendingSettlement, as new: NewTransaction, _ database: TransactionStore) throws
        -> StoredTransaction
    {
        guard let row = try database.transaction(id: pending.id), let subscription = new.subscription else {
            throw MockStoreError.transactionNotFound
        }
        let fields = TransactionStore.numbered(subscription.fields, serial: row.serial)
        let updated = try database.update(
            id: pending.id, kind: pending.kind, date: new.purchaseDate,
            assignments: """
                status = 'purchased', purchase_date = ?2, original_purchase_date = ?3, original_id = ?4, \
                transaction_reason = ?5, price = ?6, currency = ?7, storefront = ?8, storefront_id = ?9, \
                expires_date = ?10, web_order_line_item_id = ?11, subscription_group_id = ?12, offer_type = ?13, \
                offer_identifier = ?14, offer_discount_type = ?15, offer_period = ?16
                """,
            values: [
                .integer(new.purchaseDate), .integer(subscription.originalPurchaseDate ?? new.purchaseDate),
                .text(subscription.originalTransactionId ?? pending.id), .text(subscription.transactionReason.rawValue),
                .integer(new.price), .text(new.currency), .text(new.storefront), .text(new.storefrontId),
                .integer(fields.expiresDate), .text(fields.webOrderLineItemId),
                .text(fields.subscriptionGroupIdentifier),
                fields.offerType.map { .integer(Int64($0.rawValue)) } ?? .null,
                .optional(fields.offerIdentifier), .optional(fields.offerDiscountType?.rawValue),
                .optional(fields.offerPeriod),
            ])
        guard let updated else { throw MockStoreError.transactionNotFound }
        return updated
    }

    /// A purchase redeeming an offer does not wait for Ask to Buy or as an interrupted purchase here (the waiting
    /// row keeps no offer): refused rather than bought without it.
    func refuseWaitingOffer(
        _ request: PurchaseRequestBody, _ product: CatalogueProduct, _ database: TransactionStore
    ) throws {
        guard request.offer != nil else { return }
        try StoreOffers.refuseOfferOnOtherProducts(request, product)
        if try subscriptionPurchaseWaits(request, groupId: product.subscription?.groupID, database) {
            throw MockStoreError.conflict(.offerCannotWait)
        }
    }
}
