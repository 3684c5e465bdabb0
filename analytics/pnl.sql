-- The P&L of all accounts over the flat tables the reader made (reader.duckdb.sql): standard SQL that DuckDB, Spark
-- SQL and BigQuery all run as written. The driver (pnl.py) replaces {{since30}} and {{since7}} with the first days of
-- the windows ('YYYY-MM-DD': the day of as-of less 30 and 7 days) and runs each statement after a `-- name:` line.
-- Rules, as in the Swift totaliser (SummaryTotaliser, SummarySelection): for every account and device the section
-- with the highest head counts (then the latest exported_at, then signature, then file), so exports from any devices
-- at any time, merged or not, count every entry once; a v1 summary (device '*', the whole account) counts only for an
-- account with no v2 summary. A window counts the day rows on or after its first day; a feature shows when it has a
-- charge or a decline; it loses money when its margin is below zero and is often declined when declined / charges is
-- 20% or more (compared without dividing). Shares and percentages are worked out by the driver from these exact sums.
-- Money (as SummaryMoneyTotals): an account's money counts only when every section chosen for it is v3 (carries
-- credit and money rows); balances are over all of an account's rows, the flows over the window's; each money row's
-- tax, commission and proceeds and each feature's share of the proceeds are worked out by the driver (pnl_money.py):
-- money_currencies gives the rows by gross, storefront and commission, never their own tax, commission or proceeds,
-- and the driver works those out from each gross with the app's table (storefront_tax.json), as Swift's
-- StorefrontTax does.

-- name: latest
CREATE OR REPLACE TEMP TABLE latest AS
SELECT file, format, account, device, exported_at, placeholders
FROM (
    SELECT s.file AS file, f.format AS format, f.account AS account, s.device AS device,
           f.exported_at AS exported_at, f.placeholders AS placeholders,
           ROW_NUMBER() OVER (
               PARTITION BY f.account, s.device
               ORDER BY s.head DESC, f.exported_at DESC, f.signature DESC, f.file DESC
           ) AS position
    FROM summary_sections s
    JOIN summary_files f ON s.file = f.file
    WHERE f.format IN ('voicedebrief-account-summary-v2', 'voicedebrief-account-summary-v3')
       OR f.account NOT IN (
           SELECT account FROM summary_files
           WHERE format IN ('voicedebrief-account-summary-v2', 'voicedebrief-account-summary-v3')
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

-- name: money_latest
CREATE OR REPLACE TEMP TABLE money_latest AS
SELECT file, account, device FROM latest
WHERE account IN (
    SELECT account FROM latest GROUP BY account
    HAVING SUM(CASE WHEN format = 'voicedebrief-account-summary-v3' THEN 0 ELSE 1 END) = 0
);

-- name: money_accounts
SELECT (SELECT COUNT(DISTINCT account) FROM money_latest) AS counted,
       (SELECT COUNT(DISTINCT account) FROM latest) - (SELECT COUNT(DISTINCT account) FROM money_latest) AS without,
       (SELECT COALESCE(MAX(CASE WHEN f.money_placeholders THEN 1 ELSE 0 END), 0)
        FROM summary_files f WHERE f.file IN (SELECT file FROM money_latest)) AS placeholders;

-- name: money_commissions
SELECT DISTINCT f.commission_name AS name, f.commission_basis_points AS basis_points
FROM summary_files f WHERE f.file IN (SELECT file FROM money_latest)
ORDER BY name, basis_points;

-- name: money_balances
SELECT COALESCE(SUM(CASE WHEN balance > 0 THEN balance ELSE 0 END), 0) AS outstanding,
       COALESCE(SUM(CASE WHEN balance < 0 THEN 0 - balance ELSE 0 END), 0) AS below_zero,
       COALESCE(SUM(CASE WHEN balance < 0 THEN 1 ELSE 0 END), 0) AS accounts_below_zero
FROM (
    SELECT account, SUM(amount) AS balance
    FROM (
        SELECT m.account AS account, CASE WHEN c.kind = 'takenBack' THEN 0 - c.amount ELSE c.amount END AS amount
        FROM summary_credit c JOIN money_latest m ON c.file = m.file AND c.device = m.device
        UNION ALL
        SELECT m.account AS account, d.given_back - d.charged AS amount
        FROM summary_days d JOIN money_latest m ON d.file = m.file AND d.device = m.device
    ) moves
    GROUP BY account
) balances;

-- name: money_credit
SELECT w.period AS period, c.kind AS kind, SUM(c.count) AS count, SUM(c.amount) AS amount
FROM summary_credit c
JOIN money_latest m ON c.file = m.file AND c.device = m.device
JOIN windows w ON c.day >= w.first_day
GROUP BY w.period, c.kind
ORDER BY w.period, c.kind;

-- name: money_currencies
SELECT w.period AS period, r.currency AS currency, r.kind AS kind, r.storefront AS storefront,
       f.commission_basis_points AS commission_basis_points, r.gross AS gross, COUNT(*) AS row_count,
       SUM(r.count) AS count
FROM summary_money r
JOIN money_latest m ON r.file = m.file AND r.device = m.device
JOIN summary_files f ON r.file = f.file
JOIN windows w ON r.day >= w.first_day
GROUP BY w.period, r.currency, r.kind, r.storefront, f.commission_basis_points, r.gross
ORDER BY w.period, r.currency, r.kind, r.storefront, f.commission_basis_points, r.gross;

-- name: money_features
SELECT w.period AS period, d.feature AS feature, SUM(d.charged) - SUM(d.given_back) AS used, SUM(d.cost) AS cost
FROM summary_days d
JOIN money_latest m ON d.file = m.file AND d.device = m.device
JOIN windows w ON d.day >= w.first_day
GROUP BY w.period, d.feature
ORDER BY w.period, d.feature;
