-- The reader, for DuckDB: the only part of the P&L that depends on the engine. It turns the verified summary files
-- (their paths replace {{files}}, a list of string literals) into three flat tables that pnl.sql reads:
--   summary_files  (file, account, exported_at, signature, placeholders)       one row a summary
--   summary_days   (file, day, feature, charges, charged, declined, given_back, cost)
--   summary_declines (file, day, feature, reason, count, given_back)
-- For Spark SQL or BigQuery, see README.md: only this file changes.
CREATE OR REPLACE TEMP TABLE summary_json AS
SELECT filename AS file, account, exportedAt, signature, costsArePlaceholders, days, declines
FROM read_json(
    {{files}},
    format = 'unstructured',
    filename = true,
    columns = {
        'account': 'VARCHAR', 'exportedAt': 'VARCHAR', 'signature': 'VARCHAR', 'costsArePlaceholders': 'BOOLEAN',
        'days': 'STRUCT(day VARCHAR, feature VARCHAR, charges BIGINT, charged BIGINT, declined BIGINT, givenBack BIGINT, cost BIGINT)[]',
        'declines': 'STRUCT(day VARCHAR, feature VARCHAR, reason VARCHAR, count BIGINT, givenBack BIGINT)[]'
    }
);

CREATE OR REPLACE TEMP TABLE summary_files AS
SELECT file, account, exportedAt AS exported_at, signature, costsArePlaceholders AS placeholders FROM summary_json;

CREATE OR REPLACE TEMP TABLE summary_days AS
SELECT file, d.day AS day, d.feature AS feature, d.charges AS charges, d.charged AS charged, d.declined AS declined,
       d.givenBack AS given_back, d.cost AS cost
FROM (SELECT file, unnest(days) AS d FROM summary_json);

CREATE OR REPLACE TEMP TABLE summary_declines AS
SELECT file, r.day AS day, r.feature AS feature, r.reason AS reason, r.count AS count, r.givenBack AS given_back
FROM (SELECT file, unnest(declines) AS r FROM summary_json);
