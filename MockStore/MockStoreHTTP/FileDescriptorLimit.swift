import Platform

/// The process's limit on open files (`RLIMIT_NOFILE`): every connection is one, and the usual soft limit (1,024)
/// is below what a test suite's connection pools hold.
enum FileDescriptorLimit {
    /// Descriptors kept for everything but connections (the database, the listening socket, libcurl, logs).
    static let reserve = 64

    /// Raises the soft limit to the hard one when it is below `needed`; returns the soft limit now in force.
    @discardableResult
    static func raise(toAtLeast needed: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return needed }
        if limit.rlim_cur < rlim_t(needed) && limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 {
                limit = raised
            }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
