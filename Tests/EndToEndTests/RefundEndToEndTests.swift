import CreditLedger
import Foundation
import Signing
import Testing

/// Refund cycles, partial refunds and `credit reconcile` through the real `credit` and `mockstore` binaries.
@Suite struct RefundEndToEndTests {
    let home: TemporaryDirectory
    let data: DataDirectory

    init() throws {
        home = try TemporaryDirectory(prefix: "refund-e2e")
        data = try DataDirectory()
    }

    /// A store (with `arguments`) that `credit` is switched to.
    func started(_ arguments: [String] = []) async throws -> StoreProcess {
        let store = try await StoreProcess.start(dataDirectory: home.file("store"), arguments: arguments)
        let root = home.file("root.der")
        try await store.saveRoot(to: root)
        try await data.ok("store", "use", "mockstore", "--url", store.url, "--root-certificate", root)
        return store
    }

    /// Tops up once and returns the store's transaction id.
    func toppedUp() async throws -> String {
        let result = try await data.ok("topup", "--json").jsonObject()
        return try #require(result["reference"] as? String)
    }

    /// An API key (a P-256 private key, PEM, mode 0600) for the Server API.
    func apiKey() throws -> String {
        let path = home.file("AuthKey_TESTKEY001.p8")
        try KeyFile.write(Array(try P256PrivateKey.generate().pemRepresentation.utf8), to: path)
        return path
    }
}

extension RefundEndToEndTests {
    @Test func threeRefundCyclesEachReflectedOnce() async throws {
        let store = try await started()
        let id = try await toppedUp()
        await #expect(try data.balance() == 10_000_000)
        for cycle in 1...3 {
            try await store.store.refund(id)
            let taken = try await data.ok("collect")
            #expect(taken.stdout.contains("The store refunded transaction \(id)"), "cycle \(cycle): \(taken)")
            await #expect(try data.balance() == 5_000_000, "refunded, cycle \(cycle)")
            try await store.store.reverseRefund(id)
            try await data.ok("collect")
            await #expect(try data.balance() == 10_000_000, "reversed, cycle \(cycle)")
        }
        let again = try await data.ok("collect")
        #expect(again.stdout.contains("Nothing to collect."), "\(again)")
        await #expect(try data.balance() == 10_000_000)
        let steps = try await data.ok("entries", "--json").jsonArray().filter {
            ($0["kind"] as? String == "reversal") || ($0["refersTo"] as? String)?.hasPrefix("reversal-") == true
        }
        #expect(steps.count == 6)
        let verify = try await data.ok("verify", "--json").jsonObject()
        #expect(verify["ok"] as? Bool == true, "\(verify)")
        await store.stop()
    }

    /// The share in milliunits (`--percentage 50` is 50000, `33.333` is 33333).
    @Test(arguments: [(50_000, Int64(2_500_000)), (33_333, Int64(1_666_650))])
    func aPartialRefundTakesBackExactlyItsShare(_ percentage: Int, _ taken: Int64) async throws {
        let store = try await started()
        let id = try await toppedUp()
        try await store.store.refund(id, percentage: percentage)
        let collect = try await data.ok("collect", "--json").jsonObject()
        let reversed = try #require((collect["reversed"] as? [[String: Any]])?.first)
        #expect(int64(reversed["amount"]) == -taken)
        await #expect(try data.balance() == 10_000_000 - taken)
        try await data.ok("collect")
        await #expect(try data.balance() == 10_000_000 - taken, "taken once")
        try await store.store.reverseRefund(id)
        try await data.ok("collect")
        await #expect(try data.balance() == 10_000_000)
        await #expect(try data.ok("verify", "--json").jsonObject()["ok"] as? Bool == true)
        await store.stop()
    }

    @Test func anImpossibleRefundSequenceIsReportedByVerify() async throws {
        let store = try await started()
        let id = try await toppedUp()
        try await store.store.refund(id)
        try await data.ok("collect")
        await store.stop()
        // A second reversal with nothing giving the first back, of a refund the store never made, written with the
        // account's own key.
        let ledger = try Ledger.openSigned(
            directory: data.path, clock: FixedClock(Timestamp(milliseconds: 1_795_953_600_000)),
            ids: SequentialIDs(prefix: "forged"))
        let held = try #require(ledger.refundSteps(reference: id).first.flatMap(RefundStep.init(entry:))?.event)
        let forged = RefundStep(store: "mockstore", reference: id, reversalOf: RefundEvent(date: held.date + 1))
        try ledger.append(
            EntryDraft(
                id: forged.id, kind: .reversal, amount: MicroCredits(-5_000_000), refersTo: forged.refersTo,
                reference: id, product: "ai.voicedebrief.app.credit.500"))
        let verify = try await data.credit("verify")
        #expect(verify.status == 1, "\(verify)")
        #expect(verify.stdout.contains("refund-sequence") || verify.stderr.contains("refund-sequence"), "\(verify)")
        #expect((verify.stdout + verify.stderr).contains("back at once, and it bought £5.00"), "\(verify)")
    }

    @Test func aRestoredBackupIsReconciledOnce() async throws {
        let key = try apiKey()
        let store = try await started(["--api-key", "TESTKEY001=\(key)"])
        let arguments = ["reconcile", "--api-key", "TESTKEY001=\(key)", "--issuer", "issuer-1"]
        _ = try await toppedUp()
        let backup = home.file("backup")
        try FileManager.default.copyItem(atPath: data.path, toPath: backup)
        let lost = try await toppedUp()
        await #expect(try data.balance() == 15_000_000)
        try FileManager.default.removeItem(atPath: data.path)
        try FileManager.default.moveItem(atPath: backup, toPath: data.path)
        await #expect(try data.balance() == 10_000_000, "the backup predates the second top-up")

        let found = try await Credit.run(arguments, dataDirectory: data.path)
        #expect(found.status == 1, "\(found)")
        #expect(found.stdout.contains(lost) && found.stdout.contains("paid and never credited"), "\(found)")
        let json = try await Credit.run(arguments + ["--json"], dataDirectory: data.path).jsonObject()
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.map { $0["finding"] as? String } == ["paid-not-credited"])

        let fixed = try await Credit.run(arguments + ["--fix"], dataDirectory: data.path)
        #expect(fixed.status == 0, "\(fixed)")
        await #expect(try data.balance() == 15_000_000)
        let agreed = try await Credit.run(arguments, dataDirectory: data.path)
        #expect(agreed.status == 0, "\(agreed)")
        #expect(agreed.stdout.contains("agree"), "\(agreed)")
        try await data.ok("collect")
        _ = try await Credit.run(arguments + ["--fix"], dataDirectory: data.path)
        await #expect(try data.balance() == 15_000_000, "credited once, whatever runs again")
        await #expect(try data.ok("verify", "--json").jsonObject()["ok"] as? Bool == true)
        await store.stop()
    }

    @Test func reconcileFindsARefundNotTakenBackAndFixesIt() async throws {
        let key = try apiKey()
        let store = try await started(["--api-key", "TESTKEY001=\(key)"])
        let arguments = ["reconcile", "--api-key", "TESTKEY001=\(key)", "--issuer", "issuer-1"]
        let id = try await toppedUp()
        try await store.store.refund(id, percentage: 50000)
        let found = try await Credit.run(arguments + ["--transaction", id, "--json"], dataDirectory: data.path)
        #expect(found.status == 1, "\(found)")
        let findings = try #require(try found.jsonObject()["findings"] as? [[String: Any]])
        #expect(findings.map { $0["finding"] as? String } == ["refunded-not-reversed"])
        await #expect(try Credit.run(arguments + ["--fix"], dataDirectory: data.path).status == 0)
        await #expect(try data.balance() == 7_500_000)
        // The updates feed brings the same refund: the step exists, nothing more is taken.
        try await data.ok("collect")
        await #expect(try data.balance() == 7_500_000)
        await store.stop()
    }

    @Test func reconcileUsageMistakesExit64() async throws {
        let key = try apiKey()
        for arguments in [
            ["reconcile", "--issuer", "i"], ["reconcile", "--api-key", "NOEQUALS", "--issuer", "i"],
            ["reconcile", "--api-key", "K=\(key)"],
            ["reconcile", "--api-key", "K=\(key)", "--issuer", "i", "--transaction", "abc"],
        ] {
            let result = try await Credit.run(arguments, dataDirectory: data.path)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
        let help = try await data.ok("reconcile", "--help")
        #expect(help.stdout.contains("--api-key") && help.stdout.contains("--fix"))
    }
}
