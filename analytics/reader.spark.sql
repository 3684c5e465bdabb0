-- The reader, for Spark SQL: the same six flat tables as reader.duckdb.sql, from the view `summary_json` that
-- pnl_spark.py makes first (Spark reads the joined summaries, a line each with its path in `file`, with the schema
-- in pnl_spark.py: the one step done through PySpark's reader rather than in SQL).
--   summary_files    (file, format, account, exported_at, signature, placeholders, commission_name,
--                     commission_basis_points, money_placeholders)                     one row a summary
--   summary_sections (file, device, head)                                             one row a device's section
--   summary_days     (file, device, day, feature, charges, charged, declined, given_back, cost)
--   summary_declines (file, device, day, feature, reason, count, given_back)
--   summary_credit   (file, device, day, kind, count, amount)                          v3 only
--   summary_money    (file, device, day, kind, currency, storefront, tax_known, count, gross, tax, commission,
--                     proceeds)                                                        v3 only
-- Against reader.duckdb.sql: `explode` for `unnest` (an empty or null list gives no row in both), and
-- `CACHE TABLE name AS` for `CREATE OR REPLACE TEMP TABLE name AS` (Spark has no temporary table: a cached view,
-- worked out once, is one). The statements are run one by one after each `-- name:` line.

-- name: summary_files
CACHE TABLE summary_files AS
SELECT file, format, account, exportedAt AS exported_at, signature, costsArePlaceholders AS placeholders,
       commission.name AS commission_name, commission.basisPoints AS commission_basis_points,
       moneyArePlaceholders AS money_placeholders
FROM summary_json;

-- name: device_json
CACHE TABLE device_json AS
SELECT file, s.device AS device, s.head AS head, s.days AS days, s.declines AS declines, s.credit AS credit,
       s.money AS money
FROM (SELECT file, explode(devices) AS s FROM summary_json WHERE devices IS NOT NULL) sections
UNION ALL
SELECT file, '*' AS device, CAST(0 AS BIGINT) AS head, days, declines, NULL AS credit, NULL AS money
FROM summary_json WHERE format = 'voicedebrief-account-summary-v1';

-- name: summary_sections
CACHE TABLE summary_sections AS
SELECT file, device, head FROM device_json;

-- name: summary_days
CACHE TABLE summary_days AS
SELECT file, device, d.day AS day, d.feature AS feature, d.charges AS charges, d.charged AS charged,
       d.declined AS declined, d.givenBack AS given_back, d.cost AS cost
FROM (SELECT file, device, explode(days) AS d FROM device_json) flat;

-- name: summary_declines
CACHE TABLE summary_declines AS
SELECT file, device, r.day AS day, r.feature AS feature, r.reason AS reason, r.count AS count,
       r.givenBack AS given_back
FROM (SELECT file, device, explode(declines) AS r FROM device_json) flat;

-- name: summary_credit
CACHE TABLE summary_credit AS
SELECT file, device, c.day AS day, c.kind AS kind, c.count AS count, c.amount AS amount
FROM (SELECT file, device, explode(credit) AS c FROM device_json WHERE credit IS NOT NULL) flat;

-- name: summary_money
CACHE TABLE summary_money AS
SELECT file, device, m.day AS day, m.kind AS kind, m.currency AS currency, m.storefront AS storefront,
       m.taxKnown AS tax_known, m.count AS count, m.gross AS gross, m.tax AS tax, m.commission AS commission,
       m.proceeds AS proceeds
FROM (SELECT file, device, explode(money) AS m FROM device_json WHERE money IS NOT NULL) flat;
