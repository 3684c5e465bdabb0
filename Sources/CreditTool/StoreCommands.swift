import CreditLedger
import DurableFiles
import Foundation
import OptionParsing
import Payments
import Signing
import StoreWire
import TopUp
import VoiceDebriefCredit

enum StoreCommands {
    /// `credit store`: the store top-ups go through.
    static func show(_ context: Context) throws -> Int32 {
        let configuration = try StoreConfiguration.load(from: context.dataDirectory)
        if context.json {
            try printJSON(
                StoreOutputs.Store(
                    store: configuration.store.rawValue, url: configuration.url,
                    signing: configuration.signing?.rawValue, bundleId: configuration.bundleId,
                    environment: configuration.store == .mockstore
                        ? configuration.receiptEnvironment.rawValue : nil))
        } else if configuration.store == .mockstore {
            print(
                "Store: the mock store at \(configuration.url ?? "?"), receipts verified with "
                    + "\(configuration.signing == .hs256 ? "the shared secret (HS256)" : "the pinned test root (ES256)")"
                    + ", bundle \(configuration.bundleID(default: VoiceDebriefStore.bundleID)); receipts must come "
                    + "from \(configuration.receiptEnvironment).")
        } else {
            print("Store: simulated. One £5.00 pack; no money is taken.")
        }
        return CreditCLI.success
    }

    /// `credit store use simulated`.
    static func useSimulated(_ context: Context) throws -> Int32 {
        try StoreConfiguration.simulated.save(to: context.dataDirectory)
        if context.json {
            try printJSON(StoreOutputs.Store(store: StoreKind.simulated.rawValue))
        } else {
            print("Store: simulated. No money is taken.")
        }
        return CreditCLI.success
    }

    /// `credit topup`: buys `product` (a pack the parser checked) through the configured store.
    static func topUp(_ product: String, _ context: Context) async throws -> Int32 {
        let ledger = try context.openLedger()
        let flow = try StoreCommands.flow(ledger, context)
        let result: TopUpResult
        do {
            result = try await flow.topUp(productID: product)
        } catch let refused as RefusedTransaction {
            throw CreditFailure.purchaseRefused(refused)
        } catch let unknown as PurchaseOutcomeUnknown {
            throw CreditFailure.purchaseOutcomeUnknown(unknown)
        } catch let error as StoreError {
            // It never reached the store, or the store refused it: either way nothing was bought.
            throw CreditFailure.topUpFailed(error)
        }
        switch result {
        case .credited(let entry), .alreadyCredited(let entry):
            let again = { if case .alreadyCredited = result { return true } else { return false } }()
            try reportTopUp(entry, again: again, finishProblem: nil, flow, ledger, context)
        case .creditedNotFinished(let entry, let again, let problem):
            try reportTopUp(entry, again: again, finishProblem: problem, flow, ledger, context)
        case .pending(let reason, let transactionID):
            var pending = PendingPurchases.load(from: context.dataDirectory)
            pending.add(product: product, at: context.clock.now(), reason: reason, transactionID: transactionID)
            try pending.save(to: context.dataDirectory, fileSystem: ledger.fileSystem)
            if context.json {
                try printJSON(
                    StoreOutputs.Purchase(
                        result: "pending", waitingFor: PendingPurchases.waitingFor(reason), transactionId: transactionID
                    ))
            } else {
                print(
                    "The purchase is pending: it is \(PendingPurchases.waitingFor(reason)). It will be credited when "
                        + "it completes; `credit collect` or the credit screen picks it up.")
            }
        case .cancelled:
            if context.json {
                try printJSON(StoreOutputs.Purchase(result: "userCancelled"))
            } else {
                // StoreKit answers an interrupted purchase (new terms to accept, a payment method) as cancelled too.
                print(
                    "Cancelled. Nothing was bought. If the App Store asked you to resolve something first (new terms, "
                        + "a payment method), the purchase is credited when it completes; `credit collect` or the "
                        + "credit screen picks it up.")
            }
        }
        return CreditCLI.success
    }

    /// Says what a top-up credited; with `finishProblem`, that the store is told of the delivery later (a success:
    /// it was paid and recorded).
    private static func reportTopUp(
        _ entry: LedgerEntry, again: Bool, finishProblem: String?, _ flow: TopUpFlow, _ ledger: Ledger,
        _ context: Context
    ) throws {
        if context.json {
            var object = EntryJSON(entry)
            object.result = again ? "alreadyCredited" : "credited"
            object.finished = finishProblem == nil
            object.finishProblem = finishProblem
            try printJSON(object)
            return
        }
        let how =
            flow.store.takesMoney
            ? "through the \(flow.store.displayName), transaction \(entry.reference ?? "?"), receipt verified"
            : "(simulated, no money taken)"
        let later = finishProblem == nil ? "" : "; the store will be told it was delivered later"
        print(
            (again ? "Already credited: " : "Topped up ") + "\(entry.amount.formatted) \(how)\(later). "
                + "Balance \(LedgerCommands.styledBalance(ledger.balance, context)).")
        if let finishProblem {
            printError(
                "credit: note: telling the store failed (\(DisplayText.escaped(finishProblem))); "
                    + "`credit collect` or the credit screen finishes it, with nothing credited again.")
        }
    }

    static func collect(_ context: Context) async throws -> Int32 {
        let ledger = try context.openLedger()
        // Read-only (the ledger's notice has said so): a purchase collected could not be recorded, so none is.
        guard !ledger.isReadOnly else {
            if context.json {
                try printJSON(StoreOutputs.NotCollected(balance: ledger.balance.rawValue))
            } else {
                print("Nothing was collected. Balance \(LedgerCommands.styledBalance(ledger.balance, context)).")
            }
            return CreditCLI.success
        }
        let report = try await StoreCommands.collectAll(ledger, context, syncing: true)
        if context.json {
            try printJSON(
                StoreOutputs.Collected(
                    credited: report.credited.map { EntryJSON($0) }, reversed: report.reversed.map { EntryJSON($0) },
                    alreadyCredited: report.alreadyCredited.count,
                    refused: report.refused.map { .init(transactionId: $0.transactionID ?? "", reason: $0.reason) },
                    otherAccounts: report.otherAccounts, finished: report.finished,
                    balance: ledger.balance.rawValue))
        } else {
            // A sentence a line: each refusal on its own, this account's only (another account's are counted).
            for line in describe(report) { print(DisplayText.escaped(line)) }
            print("Balance \(LedgerCommands.styledBalance(ledger.balance, context)).")
        }
        return report.refused.isEmpty ? CreditCLI.success : CreditCLI.failure
    }

    /// What a collect did, a sentence a line.
    static func describe(_ report: TopUpFlow.CollectReport) -> [String] {
        var parts: [String] = []
        if report.credited.isEmpty && report.refused.isEmpty && report.reversed.isEmpty {
            parts.append("Nothing to collect.")
        }
        for entry in report.credited {
            parts.append(
                entry.refersTo == nil
                    ? "Collected \(entry.amount.formatted) from transaction \(entry.reference ?? "?")."
                    : "The store reversed its refund of transaction \(entry.reference ?? "?"): "
                        + "\(entry.amount.formatted) given back.")
        }
        for entry in report.reversed {
            parts.append(
                "The store refunded transaction \(entry.reference ?? "?"): \(MicroCredits(-entry.amount.rawValue).formatted) taken back."
            )
        }
        if !report.alreadyCredited.isEmpty {
            parts.append("\(report.alreadyCredited.count) already credited, now finished.")
        }
        for refused in report.refused { parts.append("Refused: \(refused.description).") }
        if !report.otherAccounts.isEmpty {
            let count = report.otherAccounts.count
            parts.append(
                "\(count) purchase\(count == 1 ? "" : "s") of another account on this store left for it "
                    + "(\(report.otherAccounts.joined(separator: ", "))).")
        }
        return parts
    }

    static func flow(_ ledger: Ledger, _ context: Context) throws -> TopUpFlow {
        do {
            let configuration = try StoreConfiguration.load(from: context.dataDirectory)
            return try CreditApp.topUpFlow(
                ledger: ledger, configuration: configuration, directory: context.dataDirectory,
                requestTimeout: try storeTimeout(), customer: Console.current.environment["MOCKSTORE_CUSTOMER"])
        } catch let error as StoreConfigurationError {
            throw CreditFailure.storeConfiguration(error)
        }
    }

    /// How long a request to the store waits for its answer: `CREDIT_STORE_TIMEOUT` seconds, else the store's
    /// default (10 seconds).
    static func storeTimeout() throws -> TimeInterval? {
        guard let text = Console.current.environment["CREDIT_STORE_TIMEOUT"], !text.isEmpty else {
            return nil
        }
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 3600 else {
            throw CreditFailure.badStoreTimeout(text)
        }
        return seconds
    }

    /// Collects unfinished transactions and updates, keeps the updates cursor and settles pending purchases.
    /// `syncing`: the user asked (`credit collect`), so the store's record is brought up to date first, and a store
    /// that cannot be reached is said (StoreKit's own lists never fail).
    static func collectAll(_ ledger: Ledger, _ context: Context, syncing: Bool = false) async throws
        -> TopUpFlow.CollectReport
    {
        let flow = try flow(ledger, context)
        return try await collect(with: flow, context, syncing: syncing)
    }

    static func collect(with flow: TopUpFlow, _ context: Context, syncing: Bool = false) async throws
        -> TopUpFlow.CollectReport
    {
        var configuration = try StoreConfiguration.load(from: context.dataDirectory)
        let report: TopUpFlow.CollectReport
        do {
            if syncing { try await flow.store.sync() }
            report = try await flow.collect(updatesAfter: configuration.updatesCursor)
        } catch let error as StoreError {
            // What was credited before the store failed stays credited; the next collect carries on from there.
            throw CreditFailure.collectStopped(error)
        }
        try CrashPoints.hit("collect.before-cursor")
        if flow.store.takesMoney, report.cursor != configuration.updatesCursor {
            configuration.updatesCursor = report.cursor
            try configuration.save(to: context.dataDirectory, fileSystem: flow.ledger.fileSystem)
        }
        let before = PendingPurchases.load(from: context.dataDirectory)
        guard !before.purchases.isEmpty else { return report }
        var pending = before
        pending.settle(credited: report.credited)
        if pending != before { try pending.save(to: context.dataDirectory, fileSystem: flow.ledger.fileSystem) }
        return report
    }
}
