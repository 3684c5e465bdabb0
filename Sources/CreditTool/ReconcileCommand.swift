import CreditLedger
import Foundation
import OptionParsing
import Payments
import Signing
import TopUp
import VoiceDebriefCredit

/// `credit reconcile --api-key KEYID=FILE --issuer ID`: the ledger set beside the store's own record of purchases.
struct ReconcileCommand: CreditCommand {
    static let apiKey = Option.string(
        .apiKey, "KEYID=FILE", help: "the API key's id and its private key file (.p8 PEM, mode 0600)"
    ).required()
    static let issuer = Option.string(.issuer, "ID", help: "the issuer id of the API key").required()
    static let transaction = Option.string(.transaction, "ID", help: "compare this store transaction only")
    static let fix = Option.flag(.fix, help: "record what the ledger lacks")

    static let configuration = CommandSpec(
        "reconcile", summary: "set the ledger beside the store's own record of purchases",
        discussion: """
            Reads the store's transaction history through its App Store Server API (the configured mock store's, at
            Apple's paths, with an App Store Connect API key) and sets it beside the ledger: a purchase paid and never
            credited (a backup restored over the data directory), a credit with no store transaction behind it, a
            refund or partial refund the ledger has not taken back, a reversal the store does not bear out. Every
            signed transaction is verified with the store's pinned root, as receipts are. The history is looked up
            through the newest top-up in the ledger; with --transaction ID only that transaction is compared.
            --fix records what the ledger lacks, under the ids the top-up flow would have used (so nothing is ever
            counted twice), and says what it cannot fix. Exit 0 when the store and the ledger agree (or --fix made
            them agree), 1 with the table when not.
            """,
        options: [apiKey.spec, issuer.spec, transaction.spec, fix.spec])

    /// `--api-key KEYID=FILE`, as given.
    let apiKey: String
    let issuer: String
    /// `--transaction ID`: compare this store transaction only.
    let only: String?
    /// `--fix`: record what the ledger lacks.
    let fixing: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        apiKey = try arguments.value(of: Self.apiKey)
        issuer = try arguments.value(of: Self.issuer)
        only = try arguments.value(of: Self.transaction)
        fixing = try arguments.value(of: Self.fix)
    }

    func validate() throws(UsageError) {
        _ = try keyParts()
        guard !issuer.isEmpty else { throw UsageError("--issuer needs the API key's issuer id") }
        if let only, only.isEmpty || !only.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw .invalidValue("--transaction", only, isNot: "a store transaction id (digits)")
        }
    }

    /// `--api-key KEYID=FILE`, split.
    private func keyParts() throws(UsageError) -> (keyID: String, file: String) {
        guard let equals = apiKey.firstIndex(of: "="), equals != apiKey.startIndex,
            apiKey.index(after: equals) != apiKey.endIndex
        else {
            throw .invalidValue("--api-key", apiKey, isNot: "KEYID=FILE")
        }
        return (String(apiKey[..<equals]), String(apiKey[apiKey.index(after: equals)...]))
    }

    func run(_ context: Context) async throws -> Int32 {
        let (keyID, keyFile) = try keyParts()
        let ledger = try context.openLedger()
        let (reconciliation, client) = try Self.reconciliation(
            ledger, context, keyID: keyID, keyFile: keyFile, issuer: issuer)
        let transactions: [SignedTransaction]
        do {
            if let only {
                transactions = [try await client.transaction(only)]
            } else {
                guard let newest = Self.newestReference(in: ledger, store: reconciliation.flow.store.name)
                else {
                    throw CreditFailure.noPurchaseToLookUp
                }
                transactions = try await client.history(through: newest)
            }
        } catch let error as StoreError {
            throw CreditFailure.reconcileFailed(error)
        }
        var findings = reconciliation.compare(transactions, wholeHistory: only == nil)
        if fixing && !ledger.isReadOnly {
            findings = try reconciliation.fix(findings, transactions: transactions)
        }
        let fixed = fixing
        let apart = findings.filter(\.kind.isApart)
        findings.removeAll(where: \.kind.isApart)
        let agree = findings.allSatisfy { fixed && !$0.fixedBy.isEmpty }
        try Self.show(findings, apart: apart, compared: transactions.count, fixed: fixed, agree: agree, ledger, context)
        return agree ? CreditCLI.success : CreditCLI.failure
    }

    /// The comparison over the configured store, and the Server API client it reads through.
    private static func reconciliation(
        _ ledger: Ledger, _ context: Context, keyID: String, keyFile: String, issuer: String
    ) throws -> (StoreReconciliation, AppStoreServerAPIClient) {
        let key: P256PrivateKey
        do {
            key = try P256PrivateKey(pemRepresentation: String(decoding: try KeyFile.read(keyFile), as: UTF8.self))
        } catch let error as SigningError {
            throw CreditFailure.unusableAPIKey(file: keyFile, error)
        }
        do {
            let configuration = try StoreConfiguration.load(from: context.dataDirectory)
            guard configuration.store == .mockstore, let url = configuration.url.flatMap(URL.init(string:)) else {
                throw CreditFailure.noServerAPI
            }
            guard
                let verifier = try StoreConfiguration.receiptVerifier(
                    in: context.dataDirectory, defaultBundleID: VoiceDebriefStore.bundleID)
            else {
                throw CreditFailure.noPinnedRoot
            }
            let bundle = configuration.bundleID(default: VoiceDebriefStore.bundleID)
            // CREDIT_STORE_TIMEOUT bounds every Server API request as it bounds the device calls.
            let timeout = try StoreCommands.storeTimeout() ?? StoreConfiguration.defaultRequestTimeout
            let flow = TopUpFlow(
                ledger: ledger,
                store: try CreditApp.provider(
                    configuration, directory: context.dataDirectory, requestTimeout: timeout,
                    customer: Console.current.environment["MOCKSTORE_CUSTOMER"]),
                verifier: verifier, catalogue: VoiceDebriefStore.packs, bundleID: bundle)
            let token = ServerAPIToken(keyID: keyID, issuerID: issuer, bundleID: bundle, key: key)
            return (
                StoreReconciliation(flow: flow), AppStoreServerAPIClient(baseURL: url, token: token, timeout: timeout)
            )
        } catch let error as StoreConfigurationError {
            throw CreditFailure.storeConfiguration(error)
        }
    }

    /// The newest top-up's store transaction, to look the customer's history up by.
    private static func newestReference(in ledger: Ledger, store: String) -> String? {
        let prefix = EntryDraft.topUpID(store: store, reference: "")
        return ledger.distinctEntries.last { $0.kind == .topup && $0.id.hasPrefix(prefix) }?.reference
    }

    private static func show(
        _ findings: [StoreReconciliation.Finding], apart: [StoreReconciliation.Finding], compared: Int, fixed: Bool,
        agree: Bool, _ ledger: Ledger, _ context: Context
    ) throws {
        if context.json {
            try printJSON(
                StoreOutputs.Reconciliation(
                    agree: agree, compared: compared, balance: ledger.balance.rawValue,
                    apart: apart.map { .init(transactionId: $0.transactionID, kind: $0.kind.rawValue) },
                    findings: findings.map { finding in
                        .init(
                            transactionId: finding.transactionID, finding: finding.kind.rawValue,
                            store: finding.store, ledger: finding.ledger, fixable: finding.fixable,
                            fixed: finding.fixedBy.map { EntryJSON($0) }, notFixed: finding.notFixed)
                    }))
            return
        }
        for kind in [StoreReconciliation.Kind.anotherAccount, .outsideTheApp] {
            let ids = apart.filter { $0.kind == kind }.map(\.transactionID)
            guard !ids.isEmpty else { continue }
            print("Apart, \(ReconcileCommand.words(kind)): \(ids.joined(separator: ", ")).")
        }
        guard !findings.isEmpty else {
            print(
                "The store and the ledger agree: \(compared) store transaction\(compared == 1 ? "" : "s") compared. "
                    + "Balance \(LedgerCommands.styledBalance(ledger.balance, context)).")
            return
        }
        print(ReconcileCommand.table(findings))
        for finding in findings {
            for entry in finding.fixedBy {
                print(
                    "Fixed \(finding.transactionID): \(entry.text ?? entry.kind.rawValue), \(entry.amount.formatted) (\(entry.id))."
                )
            }
            if fixed && finding.fixedBy.isEmpty {
                print("Not fixed \(finding.transactionID): \(finding.notFixed ?? "it cannot be fixed from here").")
            }
        }
        if !fixed && findings.contains(where: \.fixable) {
            print("`credit reconcile --fix` records what the ledger lacks.")
        }
        print("Balance \(LedgerCommands.styledBalance(ledger.balance, context)).")
    }

    /// The findings as a table: transaction, the store's side, the ledger's, and what it is.
    private static func table(_ findings: [StoreReconciliation.Finding]) -> String {
        let rows =
            [["TRANSACTION", "STORE", "LEDGER", "FINDING"]]
            + findings.map { [$0.transactionID, $0.store, $0.ledger, ReconcileCommand.words($0.kind)] }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == 3 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    private static func words(_ kind: StoreReconciliation.Kind) -> String {
        switch kind {
        case .paidNotCredited: return "paid and never credited"
        case .creditedWithoutStoreTransaction: return "credited with no store transaction behind it"
        case .refundedNotReversed: return "refunded at the store and not taken back"
        case .refundShareDiffers: return "refunded at the store by another share than the ledger took back"
        case .reversedNotRefunded: return "taken back in the ledger and not refunded at the store"
        case .unverifiable: return "the store's signed transaction does not verify"
        case .anotherAccount: return "bought by another account, not this one's to credit"
        case .outsideTheApp:
            return "bought outside the app and not credited here (whichever account collects it first credits it)"
        }
    }
}
