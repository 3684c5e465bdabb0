import Platform

/// Named crash points for the reliability suites, at the steps of a durable write (and, for the layers above, of a
/// top-up). Compiled in only when the `CREDIT_FAULTS` condition is set (debug builds of this target, see
/// Package.swift); in a release build every call is a no-op.
///
/// `CREDIT_FAULT=<point>` kills the process with SIGKILL the first time it reaches that point;
/// `CREDIT_FAULT=<point>@<n>` the n-th time (from 1); `CREDIT_FAULT=<point>[@<n>]:pause` stops there instead, holding
/// whatever it holds (the ledger lock), until it is killed. The points are listed in ``points``.
public enum CrashPoints {
    /// Every point, in the order an append, a rewrite and a top-up reach them.
    public static let points: [String] = [
        "append.before-write", "append.mid-line", "append.before-sync", "append.after-sync",
        "replace.before-sync", "replace.before-rename", "replace.before-directory-sync",
        "head.before-write", "torn.before-truncate", "merge.mid-write", "merge.before-sync", "join.before-rename",
        "topup.after-purchase", "topup.before-record", "topup.after-record", "topup.after-finish",
        "refund.before-record", "refund.after-record", "collect.before-cursor",
    ]

    #if CREDIT_FAULTS
        private struct Plan {
            var point: String
            var occurrence: Int
            var pause: Bool
        }

        private static let plan: Plan? = {
            guard let raw = getenv("CREDIT_FAULT").map({ String(cString: $0) }), !raw.isEmpty else { return nil }
            var text = Substring(raw)
            var pause = false
            if text.hasSuffix(":pause") {
                pause = true
                text = text.dropLast(6)
            }
            var occurrence = 1
            if let at = text.lastIndex(of: "@"), let number = Int(text[text.index(after: at)...]), number >= 1 {
                occurrence = number
                text = text[..<at]
            }
            return Plan(point: String(text), occurrence: occurrence, pause: pause)
        }()

        // Only the process's own calls, one at a time in practice; an atomic is not worth its import here.
        nonisolated(unsafe) private static var reached = 0

        /// Whether the next ``hit(_:)`` of `name` is the one that stops the process.
        public static func isActive(_ name: String) -> Bool {
            guard let plan, plan.point == name else { return false }
            return reached + 1 == plan.occurrence
        }

        /// Kills (or pauses) the process here if `CREDIT_FAULT` names this point and this occurrence; otherwise
        /// returns. Throws nothing today: `throws` keeps call sites ready for a test that throws instead.
        public static func hit(_ name: String) throws {
            guard let plan, plan.point == name else { return }
            reached += 1
            guard reached == plan.occurrence else { return }
            if plan.pause {
                while true { pause() }
            }
            kill(getpid(), SIGKILL)
        }
    #else
        /// Whether the next ``hit(_:)`` of `name` is the one that stops the process: never in this build.
        @inline(__always) public static func isActive(_ name: String) -> Bool { false }
        /// A no-op in this build.
        @inline(__always) public static func hit(_ name: String) throws {}
    #endif
}
