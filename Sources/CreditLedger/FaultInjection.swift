#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Named crash points for the reliability suites. Compiled in only when the `CREDIT_FAULTS` condition is set
/// (`swift build -Xswiftc -DCREDIT_FAULTS`); then `CREDIT_FAULT=<point>` makes the process kill itself with
/// SIGKILL when it reaches that point. In a normal build every call is a no-op.
public enum FaultInjection {
    #if CREDIT_FAULTS
        private static let point: String? = getenv("CREDIT_FAULT").map { String(cString: $0) }
        public static func isActive(_ name: String) -> Bool { point == name }
        public static func hit(_ name: String) throws {
            if point == name { kill(getpid(), SIGKILL) }
        }
    #else
        @inline(__always) public static func isActive(_ name: String) -> Bool { false }
        @inline(__always) public static func hit(_ name: String) throws {}
    #endif
}
