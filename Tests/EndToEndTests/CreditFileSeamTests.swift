import DurableFiles
import Foundation
import Testing

@testable import CreditTool

/// What `credit` writes outside its ledger (the `report` page, the `export --summary` file) and what it removes after
/// a failed first command go through the file system they are given, so a fault a test puts underneath reaches them.
@Suite struct CreditFileSeamTests {
    /// A full or failing disk: the failure in plain words, said of the file the user named, and the page written
    /// before is still there, whole.
    @Test(arguments: [
        (FaultyFileSystem.Call.write, ENOSPC, "the disk is full"), (.sync, EIO, "input/output error"),
        (.rename, EIO, "input/output error"),
    ])
    func aPageThatCannotBeWrittenKeepsTheOldOne(_ call: FaultyFileSystem.Call, _ code: Int32, _ why: String) throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("credit-report.html")
        try OutputPath.write(Array("old page".utf8), to: path, what: "the page", suggesting: "pnl.html", mode: 0o644)
        let disk = FaultyFileSystem()
        disk.failing = (call, code)
        let error = #expect(throws: CreditFailure.self) {
            try OutputPath.write(
                Array("new page".utf8), to: path, what: "the page", suggesting: "pnl.html", mode: 0o644,
                fileSystem: disk)
        }
        #expect(error?.description == "cannot write the page to \(path): \(why); nothing was written")
        #expect(disk.opened.contains { $0.path.contains("credit-report.html") }, "written through the seam")
        #expect(try Files.readAll(path) == Array("old page".utf8))
        #expect(try Files.list(scratch.path) == ["credit-report.html"], "no temporary file left behind")
    }

    /// A first command that failed leaves nothing of the data directory it made, removed through the seam.
    @Test func theCleanUpAfterAFailedFirstCommandGoesThroughTheSeam() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("new/data")
        let disk = FaultyFileSystem()
        let given = NewDataDirectory(path, fileSystem: disk)
        #expect(given.isNew && given.topmostMissing == scratch.file("new"))
        try SystemFileSystem().makeDirectories(path)
        try SystemFileSystem().replaceAtomically(path + "/ledger.jsonl", with: Array("{}\n".utf8))
        given.removeAfterFailure()
        #expect(disk.removed == [path + "/ledger.jsonl"])
        #expect(!Files.exists(scratch.file("new")))
    }

    /// In a data directory that was there and empty, only what the command put there goes, through the seam.
    @Test func theCleanUpInAnEmptyDirectoryKeepsTheDirectory() throws {
        let scratch = try TemporaryDirectory()
        let disk = FaultyFileSystem()
        let given = NewDataDirectory(scratch.path, fileSystem: disk)
        #expect(given.isNew && given.wasEmpty)
        try SystemFileSystem().replaceAtomically(scratch.file("ledger.jsonl"), with: Array("{}\n".utf8))
        given.removeAfterFailure()
        #expect(disk.removed == [scratch.file("ledger.jsonl")])
        #expect(Files.exists(scratch.path))
        #expect(try Files.list(scratch.path).isEmpty)
    }
}
