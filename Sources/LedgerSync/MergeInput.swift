import DurableFiles
import LedgerEntries
import LedgerVerification
import Platform
import Signing

/// One ledger file given to a merge or a join, read and (for a signed ledger) checked whole: every line a signed
/// entry of one device whose MAC verifies under the account's key, in sequence from 1, each linked to the one before,
/// and a head that came with it (from a data directory's `heads/`) verifying and agreeing with it.
struct MergeInput {
    let path: String
    /// The device whose entries the file holds (its first entry's; nil for an empty file).
    let device: String?
    let file: LedgerVerifier.ReadFile
    /// The head that came with it, if any, checked.
    let head: SignedHead?

    /// One file a merge or a join takes: its path, the head that came with it, and, for a data directory's file, its
    /// `ledger/` held open (the file is read through it).
    typealias Found = (path: String, head: SignedHead?, headPath: String?, ledger: DirectoryHandle?)

    /// The files at `paths`: a ledger file as it is, or a data directory's `ledger/*.jsonl`, each with its head. A
    /// directory given is followed when it is a link (the user named it: a synced folder may be one), but nothing
    /// inside it is: its `ledger/` and `heads/` are opened through it, never through a link, and a link there is
    /// refused by name, as in this device's own data directory (``DataDirectoryError/symbolicLink(path:)``).
    static func read(_ paths: [String]) throws -> [Found] {
        var found: [Found] = []
        for path in paths {
            guard isDirectory(path) else {
                found.append((path, nil, nil, nil))
                continue
            }
            let source = try DirectoryHandle(opening: path, followingLink: true)
            let ledger = try sourceDirectory("ledger", in: source)
            let names = ((try? ledger?.names()) ?? []).filter { $0.hasSuffix(".jsonl") }
            guard let ledger, !names.isEmpty else {
                throw MergeRefusal(
                    file: path, line: nil,
                    reason: .notALedger("a directory without ledger files (a data directory has ledger/*.jsonl)"))
            }
            let heads = try sourceDirectory("heads", in: source)
            for name in names {
                let device = String(name.dropLast(6))
                let headPath = SignedHead.path(in: path, device: device)
                let head: SignedHead?
                do {
                    head = try heads.flatMap { try SignedHead.read(from: $0, device: device) }
                } catch {
                    throw MergeRefusal(file: headPath, line: nil, reason: .head("it cannot be read (\(error))"))
                }
                found.append((ledger.path(of: name), head, headPath, ledger))
            }
        }
        return found
    }

    /// The directory `name` in a merge's or a join's source `directory`, opened through it and never through a
    /// link; nil when there is none (or something that is not a directory is there). A link there is refused by
    /// name (``DataDirectoryError/symbolicLink(path:)``).
    static func sourceDirectory(_ name: String, in directory: DirectoryHandle) throws -> DirectoryHandle? {
        do {
            return try directory.directory(name)
        } catch let error as FileError {
            guard let info = try directory.status(of: name) else { return nil }
            switch info.st_mode & S_IFMT {
            case S_IFLNK: throw DataDirectoryError.symbolicLink(path: directory.path(of: name))
            case S_IFDIR: throw error
            default: return nil
            }
        }
    }

    /// Reads `path` and checks it whole under `macKey` (and its head under `publicKey`); throws the first problem.
    /// With `directory`, the file is its entry of `path`'s name, read through the directory held open (a synced
    /// folder's `ledger/`).
    static func checked(
        path: String, head: SignedHead?, headPath: String?, macKey: [UInt8], publicKey: P256PublicKey,
        in directory: DirectoryHandle? = nil
    ) throws -> MergeInput {
        let name = Files.lastComponent(of: path)
        // A large file is walked a piece at a time first: one that would be refused costs no memory.
        // (One that cannot be looked at is said by the whole read, as it always was.)
        let size =
            (try? directory.map { try $0.status(of: name).map { Int64($0.st_size) } ?? 0 }
                ?? Files.regularFileSize(path)) ?? 0
        if size > readWholeUpTo, let refusal = try precheck(path, macKey: macKey, in: directory) {
            throw refusal
        }
        let file =
            try directory.map { LedgerVerifier.parse(try $0.readAll(name), path: path) } ?? LedgerVerifier.read(path)
        if let tornAt = file.tornAt {
            throw MergeRefusal(file: path, line: tornAt, reason: .cut)
        }
        guard let first = file.lines.first else {
            return MergeInput(path: path, device: nil, file: file, head: nil)
        }
        guard let device = first.entry?.device else {
            throw MergeRefusal(file: path, line: 1, reason: .unreadable(first.parseError ?? "not a ledger entry"))
        }
        // The device id names this device's files here: never a path.
        if let problem = DeviceID.problem(with: device) {
            throw MergeRefusal(file: path, line: 1, reason: .unreadable(problem))
        }
        let macValid = try LedgerVerifier.checkMACs(of: file, key: macKey)
        let end: LedgerVerifier.ChainEnd
        if let last = LedgerVerifier.cleanChain(of: file, device: device, macValid: macValid) {
            end = LedgerVerifier.ChainEnd(lastSequence: Int64(file.lines.count), lastMAC: last.hex)
        } else {
            throw firstProblem(in: file, device: device, macValid: macValid)
        }
        if let head {
            let headFile = headPath ?? path
            guard head.device == device else {
                throw MergeRefusal(file: headFile, line: nil, reason: .head("it is \(head.device)'s, not \(device)'s"))
            }
            let finding = LedgerVerifier.checkHead(
                head, required: false, device: device, file: file, end: end, publicKey: publicKey)
            if let problem = finding.problems.first {
                throw MergeRefusal(file: headFile, line: nil, reason: .head(problem.detail))
            }
        }
        return MergeInput(path: path, device: device, file: file, head: head)
    }

    /// Why a file that is not a clean chain is refused: its first bad line, as `credit verify` would judge it.
    private static func firstProblem(in file: LedgerVerifier.ReadFile, device: String, macValid: [Bool])
        -> MergeRefusal
    {
        let signed = file.lines.filter { $0.entry?.mac != nil }.count
        if signed == file.lines.count && !macValid.contains(true) {
            return MergeRefusal(file: file.path, line: 1, reason: .otherAccount)
        }
        var judge = LineJudge(file: file, device: device, macValid: macValid)
        for index in file.lines.indices {
            guard let problem = judge.judge(index).problems.first else { continue }
            let reason: MergeRefusal.Reason
            switch problem.kind {
            case .unsigned: reason = .unsigned
            case .unreadable: reason = .unreadable(problem.detail)
            case .changed where !macValid[index], .inserted where !macValid[index]: reason = .forged(problem.detail)
            default: reason = .chain(problem.detail)
            }
            return MergeRefusal(file: file.path, line: problem.line, reason: reason)
        }
        return MergeRefusal(file: file.path, line: nil, reason: .chain("the file is not one device's chain from #1"))
    }

    /// The bytes of the lines at `items` (positions in ``lines``), one after another: what joins of this file.
    func bytes(of items: [Int], in lines: [(entry: LedgerEntry, bytes: ArraySlice<UInt8>, line: Int)]) -> [UInt8] {
        var batch: [UInt8] = []
        for item in items { batch.append(contentsOf: lines[item].bytes) }
        return batch
    }

    /// The file's entries, each with its line's bytes (newline included) and its line number.
    var lines: [(entry: LedgerEntry, bytes: ArraySlice<UInt8>, line: Int)] {
        file.lines.map { line in
            (line.entry!, file.bytes[line.start...(line.start + line.count)], line.number)
        }
    }
}

/// Whether `path` is a directory (following a symbolic link, as a synced folder may be one).
private func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
