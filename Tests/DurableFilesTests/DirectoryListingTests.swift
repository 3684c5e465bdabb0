import DurableFiles
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cached listing of `ledger/`: never stale, and reused only once the directory has settled.
@Suite struct DirectoryListingTests {
    @Test func aNameAddedRightAfterAListingIsSeen() throws {
        let directory = try ScratchDirectory()
        try write("a\n", to: directory.file("a.jsonl"), mode: 0o600)
        var listing = DirectoryListing()
        #expect(try listing.names(of: directory.path) == ["a.jsonl"])
        // Same clock tick, most likely: the directory changed less than a second ago, so nothing was cached.
        try write("b\n", to: directory.file("b.jsonl"), mode: 0o600)
        #expect(try listing.names(of: directory.path) == ["a.jsonl", "b.jsonl"])
        #expect(unlink(directory.file("a.jsonl")) == 0)
        #expect(try listing.names(of: directory.path) == ["b.jsonl"])
        #expect(listing.listings == 3)
    }

    @Test func aSettledDirectoryIsListedOnceUntilItChanges() throws {
        let directory = try ScratchDirectory()
        try write("a\n", to: directory.file("a.jsonl"), mode: 0o600)
        // Settled as soon as its last change is in the past at all: no waiting for a threshold to pass.
        var listing = DirectoryListing(settledAfterNanoseconds: 0)
        #expect(try listing.names(of: directory.path) == ["a.jsonl"])
        #expect(try listing.names(of: directory.path) == ["a.jsonl"])
        #expect(try listing.names(of: directory.path) == ["a.jsonl"])
        #expect(listing.listings == 1)
        try write("b\n", to: directory.file("b.jsonl"), mode: 0o600)
        #expect(try listing.names(of: directory.path) == ["a.jsonl", "b.jsonl"])
        #expect(listing.listings == 2)
    }

    @Test func aLinkOrAMissingDirectoryIsRefused() throws {
        let directory = try ScratchDirectory()
        try FileManager.default.createDirectory(atPath: directory.file("real"), withIntermediateDirectories: false)
        #expect(symlink(directory.file("real"), directory.file("link")) == 0)
        var listing = DirectoryListing()
        #expect(throws: FileError.self) { try listing.names(of: directory.file("link")) }
        #expect(throws: FileError.self) { try listing.names(of: directory.file("missing")) }
    }
}
