import DurableFiles
import Foundation
import Signing

/// The store's data directory: `mockstore.sqlite` (the transactions), `ca/` (the test CA) and a lock file
/// that keeps a second store from using the same directory at the same time.
public struct DataDirectory: Sendable {
    public let path: String

    public var databasePath: String { path + "/mockstore.sqlite" }
    public var certificateAuthorityPath: String { path + "/ca" }
    var lockPath: String { path + "/mockstore.lock" }

    public init(path: String) {
        self.path = path
    }

    /// Creates the directory (mode 0700, with its parents) through `fileSystem` if it does not exist.
    public func create(fileSystem: any FileSystem = SystemFileSystem()) throws(StartupError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw StartupError("data directory \(path) exists but is not a directory")
            }
            return
        }
        do {
            // Through the one file-system seam: 0700 whatever the umask, durable, no link followed.
            try fileSystem.makeDirectories(path)
        } catch {
            throw StartupError("cannot create data directory \(path): \(error)")
        }
    }

    /// Takes the directory's lock, without waiting, for as long as the lock returned is kept (the kernel releases
    /// it when the process exits, however it exits).
    public func lock() throws(StartupError) -> FileLock {
        do {
            return try FileLock(path: lockPath, waiting: false)
        } catch let error as FileError where error.isHeldElsewhere {
            throw StartupError("cannot lock \(lockPath): another mockstore is using this data directory")
        } catch {
            throw StartupError("cannot lock \(lockPath): \(error)")
        }
    }

    /// The test CA kept in `ca/`, made (valid from a day before `now`, for 10 years) on first start and written
    /// through `fileSystem`.
    ///
    /// A CA that exists but cannot be read is an error, never silently replaced: clients pin its root. One that
    /// could not be written whole is removed (nobody pinned it yet), so the next start makes it again rather than
    /// refusing a half-written one.
    public func loadOrMakeCertificateAuthority(now: Date, fileSystem: any FileSystem = SystemFileSystem())
        throws(StartupError) -> TestCertificateAuthority
    {
        let directory = certificateAuthorityPath
        let rootPath = directory + "/" + TestCertificateAuthority.FileName.rootPEM
        if FileManager.default.fileExists(atPath: directory) {
            do {
                return try TestCertificateAuthority.read(from: directory)
            } catch {
                throw StartupError(
                    "cannot read the test CA in \(directory): \(error) (to make a new one, remove \(directory); "
                        + "clients that pinned the old root must then fetch the new one)")
            }
        }
        let authority = try Self.makeCertificateAuthority(now: now)
        do {
            try authority.write(to: directory, fileSystem: fileSystem)
        } catch {
            try? fileSystem.removeTree(directory)
            throw StartupError("cannot make the test CA in \(directory): \(error)")
        }
        guard FileManager.default.fileExists(atPath: rootPath) else {
            throw StartupError("the test CA was written but \(rootPath) is missing")
        }
        return authority
    }

    /// A new test CA (valid from a day before `now` into the year 9999), in memory only: `--ephemeral`'s, and the
    /// one a data directory keeps on first start.
    public static func makeCertificateAuthority(now: Date) throws(StartupError) -> TestCertificateAuthority {
        do {
            // A day early, so a client whose clock is a little behind still finds the chain valid.
            let validFrom = now.addingTimeInterval(-86_400)
            // Valid into the year 9999 (the last a virtual clock reaches): Apple's verifier checks the chain at
            // each signature's signedDate, which is virtual time however far the clock is advanced.
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(secondsFromGMT: 0) ?? utc.timeZone
            let years = max(10, 9999 - utc.component(.year, from: validFrom))
            return try TestCertificateAuthority.make(
                commonNamePrefix: "VoiceDebrief Mock Store", validFrom: validFrom, years: years)
        } catch {
            throw StartupError("cannot make a test CA: \(error)")
        }
    }
}
