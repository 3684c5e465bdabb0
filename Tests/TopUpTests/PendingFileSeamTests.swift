import CreditLedger
import DurableFiles
import Foundation
import TestSupport
import Testing
import TopUp

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `pending.json` is written through the file system it is given, so a fault a test puts under the ledger reaches
/// it: the save fails as the disk failed, and what was recorded before stays.
@Suite struct PendingFileSeamTests {
    @Test(arguments: [(FaultyFileSystem.Call.open, EACCES), (.write, ENOSPC), (.sync, EIO), (.rename, EIO)])
    func aFailedSaveFailsAndKeepsWhatWasRecorded(_ call: FaultyFileSystem.Call, _ code: Int32) throws {
        let directory = try TemporaryDirectory()
        var pending = PendingPurchases()
        pending.add(product: "credit.500", at: Timestamp(milliseconds: 1_000), reason: .askToBuy, transactionID: "1")
        try pending.save(to: directory.path)
        let before = PendingPurchases.load(from: directory.path)
        #expect(before.purchases.count == 1)
        let disk = FaultyFileSystem()
        disk.failing = (call, code)
        pending.add(product: "credit.1000", at: Timestamp(milliseconds: 2_000), reason: .askToBuy, transactionID: "2")
        let error = #expect(throws: FileError.self) { try pending.save(to: directory.path, fileSystem: disk) }
        #expect(error?.errno == code)
        #expect(PendingPurchases.load(from: directory.path) == before)
    }
}
