import Foundation
import Payments
import Signing
import StoreWire
import Synchronization

/// An in-memory store for unit tests: signs transactions like the mock store, keeps unfinished ones, counts finishes.
final class FakeStore: StoreProvider, Sendable {
    let name = "mockstore"
    let displayName = "mock store"
    let takesMoney = true
    let signer: JWSSigner
    let bundleID: String
    private struct State {
        var next = 2_000_000_000_000_001
        var unfinished: [String: SignedTransaction] = [:]
        var finishes: [String] = []
        var nextResult: PurchaseOutcome? = nil
        var failPurchase: StoreError? = nil
        var updates: [SignedTransaction] = []
        var payloads: [String: SignedTransactionPayload] = [:]
        /// The store's clock: every signature is stamped later than the one before (and than the refund it shows).
        var clock: Int64 = 1_764_400_000_000
    }
    private let state = Mutex(State())

    init(signer: JWSSigner, bundleID: String = "ai.voicedebrief.app") {
        self.signer = signer
        self.bundleID = bundleID
    }

    var finishes: [String] { state.withLock { $0.finishes } }
    var unfinishedCount: Int { state.withLock { $0.unfinished.count } }

    func setNextResult(_ outcome: PurchaseOutcome?) { state.withLock { $0.nextResult = outcome } }
    func setFailure(_ error: StoreError?) { state.withLock { $0.failPurchase = error } }

    /// Makes and keeps an unfinished transaction, as a store does when it has been paid.
    func makeTransaction(
        product: String = "ai.voicedebrief.app.credit.500", bundle: String? = nil,
        signer other: JWSSigner? = nil, quantity: Int = 1, environment: AppStoreEnvironment = .sandbox
    ) throws -> (id: String, jws: SignedTransaction) {
        let id = state.withLock { state -> String in
            defer { state.next += 1 }
            return String(state.next)
        }
        let payload = SignedTransactionPayload(
            transactionId: id, originalTransactionId: id, bundleId: bundle ?? bundleID, productId: product,
            purchaseDate: 1_764_400_000_000, originalPurchaseDate: 1_764_400_000_000, quantity: quantity,
            type: .consumable, signedDate: 1_764_400_000_000, environment: environment, price: 5000)
        let jws = try sign(payload, with: other ?? signer)
        state.withLock {
            $0.unfinished[id] = jws
            $0.payloads[id] = payload
        }
        return (id, jws)
    }

    /// An Ask to Buy approved (or an outside purchase): a new transaction, unfinished, announced as an update.
    func approvePending(product: String = "ai.voicedebrief.app.credit.500") throws -> String {
        let made = try makeTransaction(product: product)
        state.withLock { $0.updates.append(made.jws) }
        return made.id
    }

    /// The store reverses its refund of `id`: the transaction, re-signed without revocation, is an update.
    @discardableResult
    func reverseRefund(_ id: String) throws -> SignedTransaction {
        guard let payload = state.withLock({ $0.payloads[id] }) else { throw StoreError.unknown("no \(id)") }
        let jws = try sign(payload, with: signer)
        state.withLock { $0.updates.append(jws) }
        return jws
    }

    /// Delivers `signed` again through the updates feed: a state the store served before, replayed.
    func replay(_ signed: SignedTransaction) { state.withLock { $0.updates.append(signed) } }

    /// The store refunds `id`: the transaction, re-signed with revocationDate and revocationReason, is an update.
    /// `milliPercent` makes it a prorated refund (REFUND_PRORATED with that revocationPercentage); `date` is its
    /// revocationDate (a later refund of the same transaction has a later one).
    @discardableResult
    func refund(_ id: String, milliPercent: Int? = nil, date: Int64 = 1_764_500_000_000) throws -> SignedTransaction {
        guard var payload = state.withLock({ $0.payloads[id] }) else { throw StoreError.unknown("no \(id)") }
        payload.revocationDate = date
        payload.revocationReason = .refundedForOtherReason
        payload.revocationType = milliPercent == nil ? .refundFull : .refundProrated
        payload.revocationPercentage = milliPercent ?? 100_000
        let jws = try sign(payload, with: signer)
        state.withLock { $0.updates.append(jws) }
        return jws
    }

    /// Signs `payload` now: its `signedDate` is the store's clock, which moves on at every signature, as a store
    /// signs each state when it serves it.
    private func sign(_ payload: SignedTransactionPayload, with signer: JWSSigner) throws -> SignedTransaction {
        var payload = payload
        payload.signedDate = state.withLock { state in
            state.clock = max(state.clock + 1, payload.revocationDate ?? 0)
            return state.clock
        }
        return SignedTransaction(
            jwsRepresentation: try CompactJWS.sign(payload: Array(try JSONEncoder().encode(payload)), with: signer))
    }

    func products(for ids: [String]) async throws -> [StoreProduct] {
        ids.filter { $0.hasPrefix(bundleID + ".credit.") }.map {
            StoreProduct(id: $0, type: .consumable, displayName: "Credit", description: "", displayPrice: "£5.00")
        }
    }

    func purchase(_ productID: String, appAccountToken: UUID?) async throws -> PurchaseOutcome {
        if let error = state.withLock({ $0.failPurchase }) { throw error }
        if let outcome = state.withLock({ $0.nextResult }) { return outcome }
        return .success(.signed(try makeTransaction(product: productID).jws))
    }

    func unfinished() async throws -> [SignedTransaction] { state.withLock { Array($0.unfinished.values) } }

    func finish(transactionID: String) async throws {
        state.withLock {
            $0.finishes.append(transactionID)
            $0.unfinished[transactionID] = nil
        }
    }

    func updates(after cursor: String?) async throws -> (signedTransactions: [SignedTransaction], cursor: String?) {
        let start = cursor.flatMap { Int($0) } ?? 0
        return state.withLock { state in
            (Array(state.updates.dropFirst(start)), String(state.updates.count))
        }
    }
}
