import DurableFiles
import Signing

extension LedgerCheckpoint {
    /// What the counter found: the balance without a full load, or why there is none.
    public enum Counter: Equatable, Sendable {
        /// The balance: the checkpoint's (`newEntries` 0: nothing changed), or the checkpoint's taken forward by
        /// `newEntries` lines appended since, each checked.
        case counted(MicroCredits, newEntries: Int)
        /// Read the ledger whole (which also writes a new checkpoint). `change`, when a ledger file changed other
        /// than by lines at its end since the checkpoint: what happened to it, to be said.
        case readWhole(FileChange?)
    }

    /// A ledger file changed other than by new lines at its end since the checkpoint was written.
    public struct FileChange: Equatable, Sendable, CustomStringConvertible {
        public enum Kind: Equatable, Sendable {
            /// Shorter: lines cut off the end, or an older copy put back.
            case cut
            /// The same length or longer, but what was there changed.
            case rewritten
            /// Another file put in its place.
            case replaced
            /// Gone.
            case removed
        }

        public var kind: Kind
        /// The file's path.
        public var file: String

        public init(kind: Kind, file: String) {
            self.kind = kind
            self.file = file
        }

        public var description: String {
            let what =
                switch kind {
                case .cut:
                    "is shorter than when the balance was last counted (lines cut off, or an older copy put back)"
                case .rewritten: "was changed, not only added to, since the balance was last counted"
                case .replaced: "was replaced by another file since the balance was last counted"
                case .removed: "was removed since the balance was last counted"
                }
            return "\(file) \(what): every entry was read again"
        }
    }

    /// The counter of the ledger in `directory` without a full load: the signed checkpoint's balance when every
    /// ledger file and signed head is as it was, or taken forward by the lines appended since (each one's MAC,
    /// chain, sequence and device checked, and counted as a full load counts it; see ``CheckpointForward``), which
    /// then writes the checkpoint taken forward (not in a data directory that cannot be written). Anything else is
    /// ``Counter/readWhole(_:)``: open the ledger then. Takes the lock for reading. What it writes goes through
    /// `fileSystem`.
    public static func counter(directory: String, fileSystem: any FileSystem = SystemFileSystem()) -> Counter {
        let ledger = directory + "/ledger"
        // A directory that is not safe to read is for the full open to refuse, by name. The lock is taken for
        // reading: nothing is made, so a read-only data directory is read too.
        guard (try? LedgerDirectory.check(directory)) != nil, Files.exists(ledger + "/.lock"),
            let lock = try? FileLock(readingPath: ledger + "/.lock")
        else {
            return .readWhole(nil)
        }
        defer { lock.unlock() }
        guard let device = try? LedgerDirectory.deviceID(in: directory),
            let macKey = try? KeyFile.read(LedgerKeys.macKeyPath(in: directory)), macKey.count >= 16,
            let bytes = try? Files.readAll(path(in: directory), limit: LedgerCheckpoint.sizeLimit),
            let checkpoint = decode(bytes, mac: { try? HMACSHA256.authenticationCode(for: $0, key: macKey) }),
            checkpoint.device == device, let now = currentStamps(in: directory)
        else { return .readWhole(nil) }
        if now.files == checkpoint.files.map(\.stamp) && now.heads == checkpoint.heads {
            return .counted(MicroCredits(checkpoint.balance), newEntries: 0)
        }
        var forward = CheckpointForward(
            directory: directory, fileSystem: fileSystem, device: device, macKey: macKey, checkpoint: checkpoint,
            now: now)
        return forward.run()
    }

    /// The balance ``counter(directory:)`` gives, or nil when the ledger must be read whole.
    public static func balance(directory: String) -> MicroCredits? {
        if case .counted(let balance, _) = counter(directory: directory) { return balance }
        return nil
    }
}
