import Foundation
import Testing

/// The tests of the slow engines (Spark, DuckDB over thousands of accounts, headless Chromium): they run in a stage
/// of `scripts/test.sh` of their own, after the unit suite (`CREDIT_SLOW_STAGE=1`), and are skipped in the unit run so
/// it stays quick.
public enum SlowStage {
    /// Whether this run is the slow stage.
    public static var isOn: Bool { ProcessInfo.processInfo.environment["CREDIT_SLOW_STAGE"] == "1" }

    /// Why a slow test is skipped in the unit run.
    public static let reason: Comment = "a slow engine: runs in scripts/test.sh's slow stage (CREDIT_SLOW_STAGE=1)"
}
