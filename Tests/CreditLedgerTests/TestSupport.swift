import CreditLedger
import Foundation
import Testing

/// The moment the tests' clocks start at: 2026-11-29T12:00:00.000Z.
let testStart = Timestamp(milliseconds: 1_795_953_600_000)

/// The tests' start moved by `days` days.
func day(_ days: Int64) -> Timestamp { testStart.adding(days: days) }

/// A data directory and the deterministic clock and ids to open ledgers on it with.
final class LedgerFixture {
    let temporary: TemporaryDirectory
    let clock: FixedClock
    let ids: SequentialIDs
    let directory: String

    /// `prefix` names the device (`<prefix>-0001`) and the charge ids that follow.
    init(prefix: String = "dev", step: Int64 = 1000) throws {
        temporary = try TemporaryDirectory()
        clock = FixedClock(testStart, step: step)
        ids = SequentialIDs(prefix: prefix)
        directory = temporary.path + "/data"
    }

    /// An unsigned ledger (the plain `Ledger` initialiser).
    func open(openingCredit: MicroCredits = Ledger.defaultOpeningCredit) throws -> Ledger {
        try Ledger(directory: directory, clock: clock, ids: ids, authenticator: nil, openingCredit: openingCredit)
    }

    /// A signed ledger.
    func openSigned() throws -> Ledger {
        try Ledger.openSigned(directory: directory, clock: clock, ids: ids)
    }

    /// The path of `ledger`'s own device file.
    func file(of ledger: Ledger) -> String { ledger.path(forDevice: ledger.device) }
}

/// A charge draft of `pence` pence.
func chargeDraft(_ id: String, pence: Int64, feature: String = "debrief", subject: String? = nil, quantity: Int64 = 1)
    -> EntryDraft
{
    EntryDraft(
        id: id, kind: .charge, feature: feature, subject: subject, quantity: quantity,
        amount: MicroCredits(-pence * 10_000))
}

func readBytes(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw TestFailure("cannot read \(path)")
    }
    return Array(data)
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        throw TestFailure("cannot write \(path)")
    }
}

func appendBytes(_ bytes: [UInt8], to path: String) throws {
    try writeBytes(try readBytes(path) + bytes, to: path)
}

/// The lines of a file, each without its newline (the part after the last newline is dropped).
func lines(of path: String) throws -> [[UInt8]] {
    var result = try readBytes(path).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    result.removeLast()
    return result
}

/// Writes `lines` back, each followed by a newline.
func writeLines(_ lines: [[UInt8]], to path: String) throws {
    try writeBytes(lines.flatMap { $0 + [0x0A] }, to: path)
}

func fileMode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int)
}

func copyItem(_ from: String, to: String) throws {
    try FileManager.default.copyItem(atPath: from, toPath: to)
}

func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

func listDirectory(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Expects `body` to throw exactly `expected`.
func expectLedgerError(
    _ expected: LedgerError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(expected), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as LedgerError {
        #expect(error == expected, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects `body` to throw a `LedgerError` and returns it.
@discardableResult
func expectAnyLedgerError(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) -> LedgerError?
{
    do {
        try body()
        Issue.record("expected a LedgerError, but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as LedgerError {
        return error
    } catch {
        Issue.record("expected a LedgerError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
