"""The P&L of all accounts, by DuckDB over verified account summaries: the same JSON as `credit pnl --summaries DIR
--json` (SummaryTotaliser in Swift). Run through pnl.sh, which finds the verified files; usage:

    python3 analytics/pnl.py --files LIST [--as-of ISO8601] [--json]

LIST holds one verified summary path a line. The SQL is reader.duckdb.sql (the engine's reader) then pnl.sql (the
P&L, portable). This driver only fills in the window days, runs the statements and writes the rows as the JSON shape;
the one arithmetic it does is the shares and margins in basis points, from the SQL's exact sums, rounded toward zero
as Swift's integer division does.
"""

import argparse
import datetime
import json
import os
import sys

import duckdb

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
    if whole == 0:
        return None
    sign = -1 if (part < 0) != (whole < 0) else 1
    return sign * (abs(part) * 10000 // abs(whole))


def line(row):
    feature, charges, charged, declined, given_back, net, cost, margin, loses, often = row
    return {
        "feature": feature, "charges": int(charges), "charged": int(charged), "declined": int(declined),
        "declinedShareBasisPoints": basis_points(int(declined), int(charges)), "givenBack": int(given_back),
        "net": int(net), "cost": int(cost), "margin": int(margin),
        "marginBasisPoints": basis_points(int(margin), int(net)), "losesMoney": bool(loses),
        "oftenDeclined": bool(often),
    }


def empty_total():
    return line(("total", 0, 0, 0, 0, 0, 0, 0, 0, 0))


def parse_time(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (moment.microsecond // 1000)


def report(files, as_of_given):
    connection = duckdb.connect()
    listed = "[" + ", ".join(sql_string(f) for f in files) + "]"
    if files:
        reader = open(os.path.join(HERE, "reader.duckdb.sql"), encoding="utf-8").read().replace("{{files}}", listed)
        connection.execute(reader)
    else:
        # No summary verified: the same empty tables the reader would make.
        connection.execute(
            "CREATE TEMP TABLE summary_files (file VARCHAR, account VARCHAR, exported_at VARCHAR, signature VARCHAR,"
            " placeholders BOOLEAN);"
            "CREATE TEMP TABLE summary_days (file VARCHAR, day VARCHAR, feature VARCHAR, charges BIGINT,"
            " charged BIGINT, declined BIGINT, given_back BIGINT, cost BIGINT);"
            "CREATE TEMP TABLE summary_declines (file VARCHAR, day VARCHAR, feature VARCHAR, reason VARCHAR,"
            " count BIGINT, given_back BIGINT);")
    results, as_of, first_days = {}, None, {}
    for name, text in statements(os.path.join(HERE, "pnl.sql")):
        if name == "windows":
            for days in WINDOWS:
                first_days[days] = (as_of - datetime.timedelta(days=days)).strftime("%Y-%m-%d")
                text = text.replace("{{since%d}}" % days, first_days[days])
        cursor = connection.execute(text)
        rows = cursor.fetchall() if name not in ("latest", "windows") else None
        if name == "accounts":
            accounts, latest_export, placeholders = rows[0]
            as_of_text = as_of_given or latest_export or "1970-01-01T00:00:00.000Z"
            as_of = parse_time(as_of_text)
            results["accounts"] = (int(accounts), bool(placeholders))
        elif name in ("features", "totals", "reasons"):
            results[name] = rows
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
        })
    accounts, placeholders = results["accounts"]
    return {
        "format": "voicedebrief-pnl-v1", "source": "summaries", "asOf": iso(as_of), "accounts": accounts,
        "costsArePlaceholders": placeholders, "oftenDeclinedBasisPoints": THRESHOLD, "periods": periods,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", required=True, help="a file listing the verified summaries, one path a line")
    parser.add_argument("--as-of", help="the end of the windows (ISO 8601, UTC); the latest export when not given")
    parser.add_argument("--json", action="store_true", help="write the JSON (the only output there is for now)")
    arguments = parser.parse_args()
    files = [path.rstrip("\n") for path in open(arguments.files, encoding="utf-8") if path.strip()]
    json.dump(report(files, arguments.as_of), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
