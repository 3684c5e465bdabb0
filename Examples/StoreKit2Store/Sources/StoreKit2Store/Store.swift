/*
A store written the way Apple's documentation and its sample code project "Implementing a store in your app using
the StoreKit API" write one: products from `Product.products(for:)`, purchases through `product.purchase()`, every
transaction checked (`VerificationResult`), delivered and then finished, a `Transaction.updates` listener started at
launch, and what the customer owns read from `Transaction.currentEntitlements` and the subscription group's status.

The one line that differs from Apple's is the import: Apple's StoreKit on Apple platforms, MockStoreKit (the same API
over a running mockstore) on Linux.
*/

import Foundation
import Observation

#if canImport(StoreKit)
    import StoreKit
#else
    import MockStoreKit
#endif

typealias RenewalInfo = Product.SubscriptionInfo.RenewalInfo
typealias RenewalState = Product.SubscriptionInfo.RenewalState

public enum StoreError: Error {
    case failedVerification
}

@MainActor
@Observable
final class Store {
    /// What the store sells, each list sorted by price, lowest first.
    private(set) var cars: [Product] = []
    private(set) var fuel: [Product] = []
    private(set) var subscriptions: [Product] = []

    /// What the customer owns now (`Transaction.currentEntitlements`).
    private(set) var purchasedCars: [Product] = []
    private(set) var purchasedSubscriptions: [Product] = []
    /// The state of the customer's subscription in the app's one group; nil when they never subscribed.
    private(set) var subscriptionGroupStatus: RenewalState?
    /// Whether that subscription renews at the end of its period (its verified renewal info).
    private(set) var subscriptionWillAutoRenew: Bool?

    /// Tanks of fuel bought and not refunded. Consumables never appear in `currentEntitlements`: once a transaction
    /// is finished, keeping count is the app's job, so the count goes up before `finish()` and down when a
    /// transaction comes back revoked.
    private(set) var fuelCount = 0

    /// The transactions counted in `fuelCount`, and those taken off it: a transaction delivered twice (a relaunch
    /// before it was finished, a second listener) counts once.
    @ObservationIgnored private var deliveredFuel: Set<UInt64> = []
    @ObservationIgnored private var revokedFuel: Set<UInt64> = []
    /// Each entitlement refresh is numbered; one that finishes after a later one began does not overwrite it.
    @ObservationIgnored private var statusGeneration = 0

    @ObservationIgnored var updateListenerTask: Task<Void, Error>? = nil

    /// The products the app sells, as its Products.plist would list them (not by price: the store sorts them).
    private let productIdentifiers = [
        "subscription.pro", "consumable.fuel.octane89", "nonconsumable.racecar", "subscription.standard",
        "consumable.fuel.octane87", "nonconsumable.car", "subscription.premium",
    ]

    private let productIdToEmoji: [String: String] = [
        "consumable.fuel.octane87": "⛽️",
        "consumable.fuel.octane89": "🔥",
        "nonconsumable.car": "🚗",
        "nonconsumable.racecar": "🏎️",
        "subscription.standard": "🚙",
        "subscription.premium": "🚐",
        "subscription.pro": "🚚",
    ]

    init() {
        // Start a transaction listener as close to app launch as possible so you don't miss any transactions.
        updateListenerTask = listenForTransactions()

        Task {
            // During store initialization, request products from the App Store.
            await requestProducts()

            // Deliver products that the customer purchases.
            await updateCustomerProductStatus()
        }
    }

    deinit {
        updateListenerTask?.cancel()
    }

    func listenForTransactions() -> Task<Void, Error> {
        return Task.detached {
            // Iterate through any transactions that don't come from a direct call to `purchase()`: Ask to Buy
            // approvals, purchases made on another device, refunds, and (right after launch) any left unfinished.
            for await result in Transaction.updates {
                do {
                    let transaction = try self.checkVerified(result)

                    // Deliver products to the user.
                    await self.deliver(transaction)

                    // Always finish a transaction.
                    await transaction.finish()
                } catch {
                    // StoreKit has a transaction that fails verification. Don't deliver content to the user.
                    print("Transaction failed verification: \(error)")
                }
            }
        }
    }

    func requestProducts() async {
        do {
            // Request products from the App Store using the identifiers this app knows.
            let storeProducts = try await Product.products(for: productIdentifiers)

            var newCars: [Product] = []
            var newSubscriptions: [Product] = []
            var newFuel: [Product] = []

            // Filter the products into categories based on their type.
            for product in storeProducts {
                switch product.type {
                case .consumable:
                    newFuel.append(product)
                case .nonConsumable:
                    newCars.append(product)
                case .autoRenewable:
                    newSubscriptions.append(product)
                default:
                    // Ignore this product.
                    print("Unknown product: \(product.id)")
                }
            }

            // Sort each product category by price, lowest to highest, to update the store.
            cars = sortByPrice(newCars)
            subscriptions = sortByPrice(newSubscriptions)
            fuel = sortByPrice(newFuel)
        } catch {
            print("Failed product request from the App Store server: \(error)")
        }
    }

    func purchase(_ product: Product) async throws -> Transaction? {
        // Begin purchasing the `Product` the user selects.
        let result = try await product.purchase()

        switch result {
        case .success(let verification):
            // Check whether the transaction is verified. If it isn't, this function rethrows the verification error.
            let transaction = try checkVerified(verification)

            // The transaction is verified. Deliver content to the user.
            await deliver(transaction)

            // Always finish a transaction.
            await transaction.finish()

            return transaction
        case .userCancelled:
            return nil
        case .pending:
            // Ask to Buy: if it is approved, the transaction arrives through `Transaction.updates`.
            return nil
        @unknown default:
            return nil
        }
    }

    func isPurchased(_ product: Product) async throws -> Bool {
        // Determine whether the user purchases a given product.
        switch product.type {
        case .nonConsumable:
            return purchasedCars.contains(product)
        case .autoRenewable:
            return purchasedSubscriptions.contains(product)
        default:
            return false
        }
    }

    nonisolated func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
        // Check whether the JWS passes StoreKit verification.
        switch result {
        case .unverified:
            // StoreKit parses the JWS, but it fails verification.
            throw StoreError.failedVerification
        case .verified(let safe):
            // The result is verified. Return the unwrapped value.
            return safe
        }
    }

    /// Gives the customer what `transaction` bought (or takes it back when it was refunded): the fuel count for a
    /// consumable, the entitlements for everything else.
    func deliver(_ transaction: Transaction) async {
        if transaction.productType == .consumable {
            if transaction.revocationDate == nil {
                if deliveredFuel.insert(transaction.id).inserted {
                    fuelCount += transaction.purchasedQuantity
                }
            } else if deliveredFuel.contains(transaction.id), revokedFuel.insert(transaction.id).inserted {
                fuelCount -= transaction.purchasedQuantity
            }
        }
        await updateCustomerProductStatus()
    }

    func updateCustomerProductStatus() async {
        statusGeneration += 1
        let generation = statusGeneration

        var purchasedCars: [Product] = []
        var purchasedSubscriptions: [Product] = []

        // Iterate through all of the user's purchased products.
        for await result in Transaction.currentEntitlements {
            do {
                // Check whether the transaction is verified. If it isn't, catch `failedVerification` error.
                let transaction = try checkVerified(result)

                // Check the `productType` of the transaction and get the corresponding product from the store.
                switch transaction.productType {
                case .nonConsumable:
                    if let car = cars.first(where: { $0.id == transaction.productID }) {
                        purchasedCars.append(car)
                    }
                case .autoRenewable:
                    if let subscription = subscriptions.first(where: { $0.id == transaction.productID }) {
                        purchasedSubscriptions.append(subscription)
                    }
                default:
                    break
                }
            } catch {
                print("Entitlement failed verification: \(error)")
            }
        }

        // Check the group's status to learn whether the customer is new (never subscribed), active, or inactive
        // (expired subscription). This app has only one subscription group, so products in the subscriptions array
        // all belong to the same group: the statuses that `product.subscription.status` returns apply to the group.
        let statuses = (try? await subscriptions.first?.subscription?.status) ?? []
        let status = statuses.first(where: { $0.state == .subscribed }) ?? statuses.first
        let renewalInfo = status.flatMap { try? checkVerified($0.renewalInfo) }

        // A later refresh began while this one waited: it has the newer answer.
        guard generation == statusGeneration else { return }

        // Update the store information with the purchased products.
        self.purchasedCars = purchasedCars
        self.purchasedSubscriptions = purchasedSubscriptions
        subscriptionGroupStatus = status?.state
        subscriptionWillAutoRenew = renewalInfo?.willAutoRenew
    }

    func emoji(for productId: String) -> String {
        return productIdToEmoji[productId] ?? "❓"
    }

    func sortByPrice(_ products: [Product]) -> [Product] {
        products.sorted(by: { return $0.price < $1.price })
    }
}
