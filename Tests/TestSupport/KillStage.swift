import Foundation
import Testing

/// The tests that start, kill and signal real processes by the dozen (crash at every step, processes racing on one
/// data directory, a join killed at every step, a stop signal at every moment of a watch's start): they run in a
/// stage of `scripts/test.sh` of their own after the unit suite (`CREDIT_KILL_STAGE=1`), and in every
/// `scripts/reliability.sh` run, and are skipped in the unit run, which then starts a few hundred processes, not a
/// thousand.
public enum KillStage {
    /// Whether this run is the stage of real kills.
    public static var isOn: Bool { ProcessInfo.processInfo.environment["CREDIT_KILL_STAGE"] == "1" }

    /// Why such a test is skipped in the unit run.
    public static let reason: Comment =
        "real processes killed by the dozen: runs in scripts/test.sh's stage of real kills (CREDIT_KILL_STAGE=1)"
}
