-- The reader, for DuckDB: the only part of the P&L that depends on the engine. It turns the verified summary files
-- (joined by pnl.py into one newline-delimited file, a line a summary: `{"file": PATH, "summary": ITS JSON}`; that
-- file's path replaces {{joined}}) into six flat tables that pnl.sql reads:
--   summary_files    (file, format, account, exported_at, signature, placeholders, commission_name,
--                     commission_basis_points, money_placeholders)                     one row a summary
--   summary_sections (file, device, head)                                             one row a device's section
--   summary_days     (file, device, day, feature, charges, charged, declined, given_back, cost)
--   summary_declines (file, device, day, feature, reason, count, given_back)
--   summary_credit   (file, device, day, kind, count, amount)                          v3 only
--   summary_money    (file, device, day, kind, currency, storefront, tax_known, count, gross, tax, commission,
--                     proceeds)                                                        v3 only
-- A v3 or v2 summary has a section per device (its pseudonym and head; v3 with credit and money rows); a v1 summary
-- (days at the top, no devices) is one section of the whole account, device '*' and head 0, which no pseudonym can be.
-- For Spark SQL or BigQuery, see README.md: only this file changes.
CREATE OR REPLACE TEMP TABLE summary_json AS
SELECT file, summary.format AS format, summary.account AS account, summary.exportedAt AS exportedAt,
       summary.signature AS signature, summary.costsArePlaceholders AS costsArePlaceholders,
       summary.commission AS commission, summary.moneyArePlaceholders AS moneyArePlaceholders,
       summary.days AS days, summary.declines AS declines, summary.devices AS devices
FROM read_json(
    {{joined}},
    format = 'newline_delimited',
    maximum_object_size = 1073741824,
    columns = {
        'file': 'VARCHAR',
        'summary': 'STRUCT(format VARCHAR, account VARCHAR, exportedAt VARCHAR, signature VARCHAR, costsArePlaceholders BOOLEAN, commission STRUCT(name VARCHAR, basisPoints BIGINT), moneyArePlaceholders BOOLEAN, days STRUCT(day VARCHAR, feature VARCHAR, charges BIGINT, charged BIGINT, declined BIGINT, givenBack BIGINT, cost BIGINT)[], declines STRUCT(day VARCHAR, feature VARCHAR, reason VARCHAR, count BIGINT, givenBack BIGINT)[], devices STRUCT(device VARCHAR, head BIGINT, days STRUCT(day VARCHAR, feature VARCHAR, charges BIGINT, charged BIGINT, declined BIGINT, givenBack BIGINT, cost BIGINT)[], declines STRUCT(day VARCHAR, feature VARCHAR, reason VARCHAR, count BIGINT, givenBack BIGINT)[], credit STRUCT(day VARCHAR, kind VARCHAR, count BIGINT, amount BIGINT)[], money STRUCT(day VARCHAR, kind VARCHAR, currency VARCHAR, storefront VARCHAR, taxKnown BOOLEAN, count BIGINT, gross BIGINT, tax BIGINT, commission BIGINT, proceeds BIGINT)[])[])'
    }
);

CREATE OR REPLACE TEMP TABLE summary_files AS
SELECT file, format, account, exportedAt AS exported_at, signature, costsArePlaceholders AS placeholders,
       commission.name AS commission_name, commission.basisPoints AS commission_basis_points,
       moneyArePlaceholders AS money_placeholders
FROM summary_json;

CREATE OR REPLACE TEMP TABLE device_json AS
SELECT file, s.device AS device, s.head AS head, s.days AS days, s.declines AS declines, s.credit AS credit,
       s.money AS money
FROM (SELECT file, unnest(devices) AS s FROM summary_json WHERE devices IS NOT NULL)
UNION ALL
SELECT file, '*' AS device, 0 AS head, days, declines, NULL AS credit, NULL AS money
FROM summary_json WHERE format = 'voicedebrief-account-summary-v1';

CREATE OR REPLACE TEMP TABLE summary_sections AS
SELECT file, device, head FROM device_json;

CREATE OR REPLACE TEMP TABLE summary_days AS
SELECT file, device, d.day AS day, d.feature AS feature, d.charges AS charges, d.charged AS charged,
       d.declined AS declined, d.givenBack AS given_back, d.cost AS cost
FROM (SELECT file, device, unnest(days) AS d FROM device_json);

CREATE OR REPLACE TEMP TABLE summary_declines AS
SELECT file, device, r.day AS day, r.feature AS feature, r.reason AS reason, r.count AS count,
       r.givenBack AS given_back
FROM (SELECT file, device, unnest(declines) AS r FROM device_json);

CREATE OR REPLACE TEMP TABLE summary_credit AS
SELECT file, device, c.day AS day, c.kind AS kind, c.count AS count, c.amount AS amount
FROM (SELECT file, device, unnest(credit) AS c FROM device_json WHERE credit IS NOT NULL);

CREATE OR REPLACE TEMP TABLE summary_money AS
SELECT file, device, m.day AS day, m.kind AS kind, m.currency AS currency, m.storefront AS storefront,
       m.taxKnown AS tax_known, m.count AS count, m.gross AS gross, m.tax AS tax, m.commission AS commission,
       m.proceeds AS proceeds
FROM (SELECT file, device, unnest(money) AS m FROM device_json WHERE money IS NOT NULL);
