"""The P&L of all accounts, by DuckDB (or Spark) over verified account summaries: the same JSON as `credit pnl
--summaries DIR --json` (SummaryTotaliser in Swift), and without --json the same table as `credit pnl --summaries DIR`.
Run through pnl.sh, which parses the command line and has the summaries verified; pnl.sh calls it as

    python3 analytics/pnl.py --joined FILE --expect N [--engine duckdb|spark] [--as-of UTC-MS] [--json] [--days 7|30]
        [--left-out N]

FILE holds the verified summaries joined, a line each (`{"file": PATH, "summary": ITS JSON}`), as
`credit-summary-verify DIR --joined FILE` wrote them: the very bytes it checked, so nothing is read again after its
check; N is how many it verified, and the engine must read that many. On a cluster, `--joined URI` (a path, a glob or a
URI) names summaries joined that way at ingest. `--files LIST` (a verified path a line) joins the files here instead,
reading them again: for a list made by hand. --as-of is already UTC with milliseconds (iso_time.py made it);
--left-out is how many files the verifier refused. The SQL is the engine's reader (reader.duckdb.sql; reader.spark.sql
after pnl_spark.py's read) then pnl.sql (the P&L, the same for both). This driver only fills in the window days, runs
the statements and writes the rows as the JSON shape or the table; the one arithmetic it does is the shares and
margins in basis points, from the SQL's exact sums, to the nearest one (a half away from zero) as Swift's
FeatureProfitAndLoss rounds them.
"""

import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile

import iso_time
import pnl_money
import pnl_text

HERE = os.path.dirname(os.path.abspath(__file__))
THRESHOLD = 2000  # basis points: ProfitAndLossReport.defaultOftenDeclinedBasisPoints
WINDOWS = [30, 7]


def statements(path):
    """The `-- name:` statements of a SQL file, in order, as (name, text)."""
    named, name, lines = [], None, []
    for line in open(path, encoding="utf-8"):
        if line.startswith("-- name:"):
            if name:
                named.append((name, "".join(lines)))
            name, lines = line.split(":", 1)[1].strip(), []
        elif name:
            lines.append(line)
    if name:
        named.append((name, "".join(lines)))
    return named


def sql_string(text):
    return "'" + text.replace("'", "''") + "'"


def basis_points(part, whole):
    """`part` over `whole` in basis points to the nearest one, a half away from zero (1 of 6 is 1667), as
    FeatureProfitAndLoss.basisPoints rounds; None when `whole` is zero."""
    if whole == 0:
        return None
    sign = -1 if (part < 0) != (whole < 0) else 1
    quotient, remainder = divmod(abs(part) * 10000, abs(whole))
    if remainder >= abs(whole) - remainder:
        quotient += 1
    return sign * quotient


def line(row):
    feature, charges, charged, declined, given_back, net, cost, margin, loses, often = row
    return {
        "feature": feature, "charges": int(charges), "charged": int(charged), "declined": int(declined),
        "declinedShareBasisPoints": basis_points(int(declined), int(charges)), "givenBack": int(given_back),
        "net": int(net), "cost": int(cost), "margin": int(margin),
        "marginBasisPoints": basis_points(int(margin), int(net)), "losesMoney": bool(loses),
        "oftenDeclined": bool(often),
    }


def joined_line(path):
    """The summary at `path` as one line of the joined file: `{"file": PATH, "summary": ITS JSON}`. A JSON text holds
    a line break only between tokens (never inside a string), so each becomes a space; the summary's bytes are the
    ones the verifier passed, read again (never through a link, as the verifier read them), never re-encoded."""
    with os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), "rb") as summary:
        text = summary.read().replace(b"\r", b" ").replace(b"\n", b" ")
    return b'{"file": ' + json.dumps(path).encode("utf-8") + b', "summary": ' + text + b"}\n"


def write_joined(files):
    """The verified `files` joined into one newline-delimited temporary file (its path): what both engines read. One
    file is read as fast as an engine can read; a hundred thousand small ones each cost an engine a file's overhead
    (DuckDB held gigabytes a thousand of them, Spark took minutes)."""
    with tempfile.NamedTemporaryFile(prefix="pnl-", suffix=".ndjson", delete=False) as out:
        try:
            for path in files:
                out.write(joined_line(path))
        except BaseException:
            os.unlink(out.name)
            raise
        return out.name


def empty_total():
    return line(("total", 0, 0, 0, 0, 0, 0, 0, 0, 0))


class DuckDBEngine:
    """DuckDB, embedded: reader.duckdb.sql with the files' names filled in, then pnl.sql's statements as written."""

    def __init__(self):
        import duckdb

        self.connection = duckdb.connect()

    def load(self, joined, expected, statements):
        """Reads the joined summaries (a path, or a glob of them) into the reader's six tables; `expected`, when
        known, is how many summaries they hold, and a different count is an error, never a smaller total."""
        reader = open(os.path.join(HERE, "reader.duckdb.sql"), encoding="utf-8").read()
        self.connection.execute(reader.replace("{{joined}}", sql_string(joined)))
        read = self.connection.execute("SELECT COUNT(*) FROM summary_files").fetchall()[0][0]
        if expected is not None and read != expected:
            raise RuntimeError("DuckDB read %d of the %d verified summaries" % (read, expected))

    def execute(self, text, rows):
        cursor = self.connection.execute(text)
        return cursor.fetchall() if rows else None

    def close(self):
        self.connection.close()


def engine(name):
    """The engine called `name`: duckdb or spark."""
    if name == "spark":
        import pnl_spark

        return pnl_spark.SparkEngine()
    return DuckDBEngine()


def run(source, as_of_given, engine_name="duckdb", expected_given=None):
    """Runs the SQL over `source`: a list of verified files (at least one), joined here first, or the path of
    summaries already joined (`--joined`, of which `expected_given` are expected when given). The rows of each
    statement, the as-of and the windows' first days."""
    made = write_joined(source) if isinstance(source, list) else None
    try:
        sql = engine(engine_name)
        try:
            expected = len(source) if made else expected_given
            return run_statements(sql, made or source, expected, as_of_given)
        finally:
            sql.close()
    finally:
        if made:
            os.unlink(made)


def run_statements(sql, joined, expected, as_of_given):
    sql.load(joined, expected, statements)
    results, as_of, first_days = {}, None, {}
    for name, text in statements(os.path.join(HERE, "pnl.sql")):
        if name == "windows":
            for days in WINDOWS:
                first_days[days] = (as_of - datetime.timedelta(days=days)).strftime("%Y-%m-%d")
                text = text.replace("{{since%d}}" % days, first_days[days])
        rows = sql.execute(text, name not in ("latest", "windows", "money_latest"))
        if name == "accounts":
            as_of = iso_time.parse(as_of_given or rows[0][1])
            results["accounts"] = rows[0]
        elif name in ("features", "totals", "reasons") or name.startswith("money_"):
            results[name] = rows
    return results, as_of, first_days


def report(source, as_of_given, engine_name="duckdb", expected=None):
    """The P&L in the voicedebrief-pnl-v1 shape, and (files counted, older exports superseded), of `source` (see
    `run`)."""
    results, as_of, first_days = run(source, as_of_given, engine_name, expected)
    periods = []
    for period, days in [("all", None)] + [("%dd" % d, d) for d in WINDOWS]:
        features = [line(row[1:]) for row in results["features"] if row[0] == period]
        totals = [line(row[1:]) for row in results["totals"] if row[0] == period]
        reasons = [
            {"reason": reason, "count": int(count), "givenBack": int(given_back)}
            for (p, reason, count, given_back) in results["reasons"] if p == period
        ]
        periods.append({
            "period": period, "days": days, "since": None if days is None else first_days[days] + "T00:00:00.000Z",
            "features": features, "total": totals[0] if totals else empty_total(), "declinesByReason": reasons,
            "money": pnl_money.section(results, period),
        })
    accounts, _, placeholders, files_counted, superseded = results["accounts"]
    made = {
        "format": "voicedebrief-pnl-v1", "source": "summaries", "asOf": iso_time.iso(as_of),
        "accounts": int(accounts), "costsArePlaceholders": bool(placeholders), "oftenDeclinedBasisPoints": THRESHOLD,
        "periods": periods,
    }
    return made, (int(files_counted), int(superseded))


def first_line(problem):
    """An engine's error in one line: Spark's come with a Java stack trace after the message."""
    text = str(problem).strip() or type(problem).__name__
    return text.splitlines()[0]


# The exit status that says the engine's Python package is missing (when not told how to install it).
ENGINE_MISSING = 3


def engine_installed(module):
    """Whether Python can import the engine's package (checked here, so pnl.sh starts no process to ask)."""
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def install_duckdb(script):
    """Installs DuckDB's package with `bash script duckdb` (what it installs said on standard error), then imports it."""
    import importlib
    import subprocess
    if subprocess.run(["bash", script, "duckdb"], stdout=subprocess.DEVNULL).returncode != 0:
        return False
    importlib.invalidate_caches()
    if engine_installed("duckdb"):
        return True
    sys.stderr.write("pnl.sh: duckdb was installed but Python cannot import it\n")
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--files", help="a file listing the verified summaries, one path a line")
    given.add_argument(
        "--joined", help="verified summaries already joined, a line each ({\"file\": PATH, \"summary\": ...}): a "
        "path, a glob or (Spark) a URI, as a cluster's compaction writes them")
    parser.add_argument("--as-of", help="the end of the windows (UTC, milliseconds); the latest export when not given")
    parser.add_argument("--json", action="store_true", help="write the JSON rather than the table")
    parser.add_argument("--days", choices=["7", "30"], help="the table of the last 7 or 30 days only")
    parser.add_argument("--engine", choices=["duckdb", "spark"], default="duckdb", help="the SQL engine")
    parser.add_argument("--left-out", type=int, default=0, help="how many files the verifier refused")
    parser.add_argument(
        "--expect", type=int, help="with --joined: how many summaries it holds (the verifier's count), checked")
    parser.add_argument(
        "--install-with", metavar="SCRIPT", help="install-engine.sh: run to install DuckDB when it is missing (pnl.sh "
        "ends in this process, so it asks here); without it a missing DuckDB is exit 3")
    parser.add_argument(
        "--remove-when-done", metavar="DIR", help="a scratch directory of pnl.sh's, removed when this ends")
    arguments = parser.parse_args()
    try:
        return total_and_write(arguments)
    finally:
        if arguments.remove_when_done:
            shutil.rmtree(arguments.remove_when_done, ignore_errors=True)


def total_and_write(arguments):
    """Totals the summaries `arguments` name and writes the P&L: the exit status."""
    if arguments.engine == "duckdb" and not engine_installed("duckdb"):
        if arguments.install_with is None:
            return ENGINE_MISSING
        if not install_duckdb(arguments.install_with):
            return 1
    source = arguments.joined
    if arguments.files is not None:
        source = [path.rstrip("\n") for path in open(arguments.files, encoding="utf-8") if path.strip()]
        if not source:
            sys.stderr.write("pnl.sh: no summary to total\n")
            return 1
    try:
        made, (counted, superseded) = report(source, arguments.as_of, arguments.engine, arguments.expect)
    except Exception as problem:  # the engine's own error (a Java one for Spark), said in words, not as a traceback
        sys.stderr.write("pnl.sh: %s could not total the summaries: %s\n" % (arguments.engine, first_line(problem)))
        return 1
    if arguments.json:
        json.dump(made, sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
    else:
        period = "all" if arguments.days is None else arguments.days + "d"
        sys.stdout.write(pnl_text.text(made, period, counted, superseded, arguments.left_out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
