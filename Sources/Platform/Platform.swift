// The one place the platform differences are: the C library (Glibc on Linux, Darwin on Apple's systems), exported
// so that a file needs `import Platform` and nothing else, and the calls that differ between them.
import CPlatform

#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Darwin)
    @_exported import Darwin
#endif

/// The calls whose meaning differs between Linux and Darwin, each made the same there.
public enum Platform {
    /// Makes `fd`'s data (and its size) durable: `fdatasync` on Linux; `F_FULLFSYNC` on Darwin, where `fsync` leaves
    /// the data in the drive's cache. 0, or -1 with `errno` set.
    public static func syncData(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            fcntl(fd, F_FULLFSYNC)
        #else
            fdatasync(fd)
        #endif
    }

    /// The `send` flag that keeps a write to a closed peer from raising SIGPIPE: `MSG_NOSIGNAL` on Linux; on Darwin
    /// there is none (0), and ``keepSignalPipeQuiet(_:)`` sets `SO_NOSIGPIPE` on the socket instead.
    public static var sendWithoutSignal: Int32 {
        #if canImport(Darwin)
            0
        #else
            Int32(MSG_NOSIGNAL)
        #endif
    }

    /// `SOCK_STREAM` as `socket(2)` takes it (an enum on Glibc, an `Int32` on Darwin).
    public static var streamSocket: Int32 {
        #if canImport(Glibc)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// Darwin: sets `SO_NOSIGPIPE` on `socket`, so writing to a closed peer fails with `EPIPE` instead of killing
    /// the process. Linux: nothing (``sendWithoutSignal`` does it per call).
    public static func keepSignalPipeQuiet(_ socket: Int32) {
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Asks the kernel to send `signal` to this process when the thread that started it ends (Linux's
    /// `PR_SET_PDEATHSIG`; that thread's process may live on, so the receiver checks `getppid`). False where there is
    /// no such call (Darwin: a caller polls `getppid` instead) or it failed.
    public static func signalWhenParentEnds(_ signal: Int32) -> Bool {
        #if canImport(Glibc)
            CPlatform_setParentDeathSignal(signal) == 0
        #else
            false
        #endif
    }

    /// Swaps the entries `from` and `to` in one step (`renameat2` with `RENAME_EXCHANGE`), each relative to a
    /// directory descriptor (`AT_FDCWD`: the working directory): what tests use to swap a directory for a link as an
    /// attacker would. 0, or -1 with `errno` set (`ENOSYS` where there is no such call: Darwin).
    public static func exchangeNames(_ from: String, in fromDirectory: Int32, with to: String, in toDirectory: Int32)
        -> Int32
    {
        #if canImport(Glibc)
            CPlatform_renameExchange(fromDirectory, from, toDirectory, to)
        #else
            errno = ENOSYS
            return -1
        #endif
    }
}
