-- The P&L of all accounts over the flat tables the reader made (reader.duckdb.sql): standard SQL that DuckDB, Spark
-- SQL and BigQuery all run as written. The driver (pnl.py) replaces {{since30}} and {{since7}} with the first days of
-- the windows ('YYYY-MM-DD': the day of as-of less 30 and 7 days) and runs each statement after a `-- name:` line.
-- Rules, as in the Swift totaliser (SummaryTotaliser, SummarySelection): for every account and device the section
-- with the highest head counts (then the latest exported_at, then signature, then file), so exports from any devices
-- at any time, merged or not, count every entry once; a v1 summary (device '*', the whole account) counts only for an
-- account with no v2 summary. A window counts the day rows on or after its first day; a feature shows when it has a
-- charge or a decline; it loses money when its margin is below zero and is often declined when declined / charges is
-- 20% or more (compared without dividing). Shares and percentages are worked out by the driver from these exact sums.

-- name: latest
CREATE OR REPLACE TEMP TABLE latest AS
SELECT file, account, device, exported_at, placeholders
FROM (
    SELECT s.file AS file, f.account AS account, s.device AS device, f.exported_at AS exported_at,
           f.placeholders AS placeholders,
           ROW_NUMBER() OVER (
               PARTITION BY f.account, s.device
               ORDER BY s.head DESC, f.exported_at DESC, f.signature DESC, f.file DESC
           ) AS position
    FROM summary_sections s
    JOIN summary_files f ON s.file = f.file
    WHERE f.format = 'voicedebrief-account-summary-v2'
       OR f.account NOT IN (
           SELECT account FROM summary_files WHERE format = 'voicedebrief-account-summary-v2'
       )
) ranked
WHERE position = 1;

-- name: accounts
SELECT COUNT(DISTINCT account) AS accounts, MAX(exported_at) AS as_of,
       COALESCE(MAX(CASE WHEN placeholders THEN 1 ELSE 0 END), 0) AS placeholders,
       COUNT(DISTINCT file) AS files,
       (SELECT COUNT(*) FROM summary_files WHERE file NOT IN (SELECT file FROM latest)) AS superseded
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
JOIN latest l ON d.file = l.file AND d.device = l.device
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
JOIN latest l ON d.file = l.file AND d.device = l.device
JOIN windows w ON d.day >= w.first_day
GROUP BY w.period
ORDER BY w.period;

-- name: reasons
SELECT w.period AS period, r.reason AS reason, SUM(r.count) AS count, SUM(r.given_back) AS given_back
FROM summary_declines r
JOIN latest l ON r.file = l.file AND r.device = l.device
JOIN windows w ON r.day >= w.first_day
GROUP BY w.period, r.reason
ORDER BY w.period, SUM(r.count) DESC, r.reason;
