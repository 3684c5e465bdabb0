import Foundation
import MockStoreHTTP
import MockStoreSQLite
import StoreKitCatalogue
import StoreWire

/// The catalogue part: the products as the device API shows them (in the storefront and locale in force), the
/// caches that keep their answers, and the products a purchase asks for.
public struct StoreCatalogue: StorePart {
    let configuration: MockStore.Configuration
    let database: GroupCommit<TransactionStore>
    let settings: StoreSettings
    /// Encoded product lists, by what they depend on.
    let productsBodies: ProductsBodyCache
    /// The settings products are shown with, kept while no setting or failure changes (the database invalidates
    /// it when one does).
    let productSettingsCache: ProductSettingsCache

    /// The quantities one purchase may buy (StoreKit's `quantity` purchase option).
    public static let allowedQuantities = 1...10

    /// The products with these ids, in the order asked, each once; unknown ids are left out.
    ///
    /// - Throws: ``MockStoreError`` for a simulated `loadProducts` failure, or a failure of the store.
    public func products(ids: [String]) throws(MockStoreError) -> [StoreProductInfo] {
        let (inForce, localeInForce) = try productSettings()
        return products(ids: ids, storefront: inForce, locale: localeInForce)
    }

    /// The JSON body answering a products request (`{"products": [...]}` of ``products(ids:)``), encoded once for
    /// each list of ids, currency and locale and then kept (``ProductsBodyCache``): the storefront and locale in
    /// force are read on every call, so a test control that changes them changes the next answer.
    ///
    /// - Throws: ``MockStoreError`` for a simulated `loadProducts` failure, or a failure of the store.
    public func productsBody(ids: [String]) throws(MockStoreError) -> [UInt8] {
        let (inForce, localeInForce) = try productSettings()
        let key = ProductsBodyCache.Key(ids: ids, currency: inForce.currency, locale: localeInForce)
        if let kept = productsBodies.body(for: key) { return kept }
        let body: [UInt8]
        do {
            body = try HTTPResponse.encode(
                StoreProductsBody(products: products(ids: ids, storefront: inForce, locale: localeInForce)))
        } catch {
            throw .internalError(error)
        }
        productsBodies.keep(body, for: key)
        return body
    }

    /// The storefront and locale products are shown in, after a simulated `loadProducts` failure is checked: from
    /// ``ProductSettingsCache`` when it has them, else from the database (and then kept).
    private func productSettings() throws(MockStoreError) -> (Storefront, String) {
        let inForce: ProductSettingsCache.Settings
        // The cache holds the default customer's storefront; another customer's is read each time.
        let isDefaultCustomer =
            (CustomerScope.name ?? MockCustomerHeader.defaultCustomer) == MockCustomerHeader.defaultCustomer
        if isDefaultCustomer, let kept = productSettingsCache.settings {
            inForce = kept
        } else {
            let (read, generation, isKeepable) = try withDatabase { database in
                // Invalidations happen under this lock too, so this generation is the one the reads below see.
                let generation = productSettingsCache.generation
                let once = try settings.failureInForce(.loadProducts, database)?.once ?? false
                let read = ProductSettingsCache.Settings(
                    storefront: try settings.storefront(database), locale: try settings.locale(database),
                    failure: try settings.takeSimulatedFailure(.loadProducts, database))
                return (read, generation, !once)
            }
            // Committed by now: what was read is durable.
            if isKeepable && isDefaultCustomer {
                productSettingsCache.keep(read, readAt: generation)
            }
            inForce = read
        }
        if let failure = inForce.failure {
            throw .simulated(failure)
        }
        return (inForce.storefront, inForce.locale)
    }

    private func products(ids: [String], storefront: Storefront, locale: String) -> [StoreProductInfo] {
        var seen = Set<String>()
        let catalogue = configuration.catalogue
        return ids.compactMap { id in
            guard seen.insert(id).inserted, let product = catalogue.product(id: id) else { return nil }
            return info(for: product, storefront: storefront, locale: locale)
        }
    }

    /// The catalogue product a purchase asks for, after checking the request.
    ///
    /// - Throws: ``MockStoreError``: 4000023 for an unknown product, 4000000 for a bad quantity, 4000183 for an
    ///   `appAccountToken` that is not a UUID.
    func catalogueProduct(_ request: PurchaseRequestBody) throws(MockStoreError) -> CatalogueProduct {
        guard let product = configuration.catalogue.product(id: request.productId) else {
            throw .invalidProductId(request.productId)
        }
        let quantity = request.quantity ?? 1
        let allowed = product.type.allowsQuantity ? Self.allowedQuantities : 1...1
        guard allowed.contains(quantity) else {
            throw .invalid(.invalidQuantity(quantity, productType: product.type, allowed: allowed))
        }
        if let token = request.appAccountToken, UUID(uuidString: token) == nil {
            throw .invalidAppAccountToken(token)
        }
        return product
    }

    /// A new transaction for `product` as `request` asks, priced in the storefront now in force.
    func newTransaction(
        _ product: CatalogueProduct, _ request: PurchaseRequestBody, _ database: TransactionStore,
        status: StoredTransaction.Status, origin: StoredTransaction.Origin,
        pendingReason: StoredTransaction.PendingReason? = nil
    ) throws -> NewTransaction {
        let storefront = try settings.storefront(database)
        let quantity = request.quantity ?? 1
        return NewTransaction(
            productId: product.id, productType: product.type.transactionType, quantity: quantity,
            price: product.priceMilliunits * Int64(quantity), currency: storefront.currency,
            storefront: storefront.code, storefrontId: storefront.storefrontId,
            purchaseDate: configuration.clock.now().millisecondsSince1970, appAccountToken: request.appAccountToken,
            status: status, origin: origin, pendingReason: pendingReason)
    }

    private func info(for product: CatalogueProduct, storefront: Storefront, locale: String) -> StoreProductInfo {
        let localization = product.localization(for: locale)
        return StoreProductInfo(
            id: product.id, type: product.type.storeKitType,
            displayName: localization?.displayName ?? product.referenceName,
            description: localization?.description ?? "",
            displayPrice: PriceFormatter.displayPrice(
                product.displayPrice, currency: storefront.currency, locale: locale),
            price: product.displayPrice, currency: storefront.currency, isFamilyShareable: product.familyShareable,
            subscription: configuration.catalogue.subscriptionInfo(of: product, storefront: storefront, locale: locale),
            locale: locale)
    }
}
