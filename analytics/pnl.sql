-- The P&L of all accounts over the flat tables the reader made (reader.duckdb.sql): standard SQL that DuckDB, Spark
-- SQL and BigQuery all run as written. The driver (pnl.py) replaces {{since30}} and {{since7}} with the first days of
-- the windows ('YYYY-MM-DD': the day of as-of less 30 and 7 days) and runs each statement after a `-- name:` line.
-- Rules, as in the Swift totaliser (SummaryTotaliser): the latest summary per account counts (by exported_at, then
-- signature, then file); a window counts the day rows on or after its first day; a feature shows when it has a charge
-- or a decline; it loses money when its margin is below zero and is often declined when declined / charges is 20% or
-- more (compared without dividing). Shares and percentages are worked out by the driver from these exact sums.

-- name: latest
CREATE OR REPLACE TEMP TABLE latest AS
SELECT file, account, exported_at, placeholders
FROM (
    SELECT file, account, exported_at, placeholders,
           ROW_NUMBER() OVER (PARTITION BY account ORDER BY exported_at DESC, signature DESC, file DESC) AS position
    FROM summary_files
) ranked
WHERE position = 1;

-- name: accounts
SELECT COUNT(*) AS accounts, MAX(exported_at) AS as_of,
       COALESCE(MAX(CASE WHEN placeholders THEN 1 ELSE 0 END), 0) AS placeholders
FROM latest;

-- name: windows
CREATE OR REPLACE TEMP TABLE windows AS
SELECT 'all' AS period, '0000-01-01' AS first_day
UNION ALL SELECT '30d', '{{since30}}'
UNION ALL SELECT '7d', '{{since7}}';

-- name: features
SELECT w.period AS period, d.feature AS feature,
       SUM(d.charges) AS charges, SUM(d.charged) AS charged, SUM(d.declined) AS declined,
       SUM(d.given_back) AS given_back, SUM(d.charged) - SUM(d.given_back) AS net, SUM(d.cost) AS cost,
       SUM(d.charged) - SUM(d.given_back) - SUM(d.cost) AS margin,
       CASE WHEN SUM(d.charged) - SUM(d.given_back) - SUM(d.cost) < 0 THEN 1 ELSE 0 END AS loses_money,
       CASE WHEN SUM(d.charges) > 0 AND SUM(d.declined) * 10000 >= SUM(d.charges) * 2000 THEN 1 ELSE 0 END
           AS often_declined
FROM summary_days d
JOIN latest l ON d.file = l.file
JOIN windows w ON d.day >= w.first_day
GROUP BY w.period, d.feature
HAVING SUM(d.charges) > 0 OR SUM(d.declined) > 0
ORDER BY w.period, SUM(d.charged) DESC, d.feature;

-- name: totals
SELECT w.period AS period, 'total' AS feature,
       SUM(d.charges) AS charges, SUM(d.charged) AS charged, SUM(d.declined) AS declined,
       SUM(d.given_back) AS given_back, SUM(d.charged) - SUM(d.given_back) AS net, SUM(d.cost) AS cost,
       SUM(d.charged) - SUM(d.given_back) - SUM(d.cost) AS margin,
       CASE WHEN SUM(d.charged) - SUM(d.given_back) - SUM(d.cost) < 0 THEN 1 ELSE 0 END AS loses_money,
       CASE WHEN SUM(d.charges) > 0 AND SUM(d.declined) * 10000 >= SUM(d.charges) * 2000 THEN 1 ELSE 0 END
           AS often_declined
FROM summary_days d
JOIN latest l ON d.file = l.file
JOIN windows w ON d.day >= w.first_day
GROUP BY w.period
ORDER BY w.period;

-- name: reasons
SELECT w.period AS period, r.reason AS reason, SUM(r.count) AS count, SUM(r.given_back) AS given_back
FROM summary_declines r
JOIN latest l ON r.file = l.file
JOIN windows w ON r.day >= w.first_day
GROUP BY w.period, r.reason
ORDER BY w.period, SUM(r.count) DESC, r.reason;
