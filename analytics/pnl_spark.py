"""The Spark engine of pnl.py (`pnl.sh --engine spark`): Apache Spark through PySpark, in local mode here
(`local[2]`, or $PNL_SPARK_MASTER), on a cluster when pnl.py is run by `spark-submit --master ...` (README.md, "On a
cluster"). It runs the same pnl.sql as DuckDB; what differs is here and in reader.spark.sql, and nowhere else:

- Reading: PySpark's JSON reader with the schema below (the same columns as reader.duckdb.sql's `columns`) over the
  joined summaries pnl.py wrote (a line a summary: its path, as the verifier printed it, and its JSON), or a
  cluster's compacted ones (`--joined`). A verified summary Spark did not read is an error, never a smaller total.
- `CREATE OR REPLACE TEMP TABLE name AS` in pnl.sql is run as `CACHE TABLE name AS` (Spark has no temporary table;
  a cached view, worked out once when made, is one): the one textual change, made by `shimmed`.
- Sums of BIGINT are BIGINT in Spark (DuckDB widens them to HUGEINT); under ANSI mode, Spark 4's default, a sum
  past 2^63 - 1 is an error, never a wrapped figure. The summaries' figures are at most 10^15 each.
"""

import os
import re
import tempfile

DAY = "STRUCT<day: STRING, feature: STRING, charges: BIGINT, charged: BIGINT, declined: BIGINT, givenBack: BIGINT, cost: BIGINT>"
DECLINE = "STRUCT<day: STRING, feature: STRING, reason: STRING, count: BIGINT, givenBack: BIGINT>"
CREDIT = "STRUCT<day: STRING, kind: STRING, count: BIGINT, amount: BIGINT>"
MONEY = ("STRUCT<day: STRING, kind: STRING, currency: STRING, storefront: STRING, taxKnown: BOOLEAN, count: BIGINT, "
         "gross: BIGINT, tax: BIGINT, commission: BIGINT, proceeds: BIGINT>")
SUMMARY = (
    "STRUCT<format: STRING, account: STRING, exportedAt: STRING, signature: STRING, costsArePlaceholders: BOOLEAN, "
    "commission: STRUCT<name: STRING, basisPoints: BIGINT>, moneyArePlaceholders: BOOLEAN, "
    f"days: ARRAY<{DAY}>, declines: ARRAY<{DECLINE}>, "
    f"devices: ARRAY<STRUCT<device: STRING, head: BIGINT, days: ARRAY<{DAY}>, declines: ARRAY<{DECLINE}>, "
    f"credit: ARRAY<{CREDIT}>, money: ARRAY<{MONEY}>>>>"
)
# A line of the joined summaries: the path the verifier printed, and the summary.
JOINED_SCHEMA = f"file STRING, summary {SUMMARY}"
TEMP_TABLE = re.compile(r"CREATE OR REPLACE TEMP TABLE (\w+) AS")
HERE = os.path.dirname(os.path.abspath(__file__))


class SparkFailed(Exception):
    """Why Spark could not total the summaries, in words."""


def started(builder):
    """The session `builder` makes, its JVM's own standard error (start-up notes that are not ours to print: Java's
    incubator module warning, Spark's default log level) kept in a file, shown only if Spark does not start."""
    log = tempfile.TemporaryFile()
    saved = os.dup(2)
    os.dup2(log.fileno(), 2)
    try:
        return builder.getOrCreate()
    except Exception as problem:
        log.seek(0)
        said = [line for line in log.read().decode("utf-8", "replace").splitlines() if line.strip()]
        raise SparkFailed("Spark did not start (%s)" % (said[-1] if said else str(problem).splitlines()[0])) from None
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        log.close()


def shimmed(text):
    """A pnl.sql statement as Spark SQL runs it: a temporary table is a cached view."""
    return TEMP_TABLE.sub(r"CACHE TABLE \1 AS", text)


class SparkEngine:
    """One Spark session: `load` the verified files, then `execute` pnl.sql's statements one by one."""

    def __init__(self):
        import logging

        # PySpark logs each SQL error it raises (as JSON, with Java's stack); pnl.py says the error once, in words.
        logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
        submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # set by spark-submit for the script it runs
        if not submitted:
            # Run by pnl.sh: PySpark starts the JVM itself, with these options (quiet logs, memory, local address).
            options = "-Dlog4j2.configurationFile=file:" + os.path.join(HERE, "log4j2.spark.properties")
            os.environ["PYSPARK_SUBMIT_ARGS"] = " ".join([
                "--driver-java-options", '"' + options + '"',
                "--driver-memory", os.environ.get("PNL_SPARK_DRIVER_MEMORY", "2g"), "pyspark-shell",
            ])
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.appName("voicedebrief-pnl")
        if not submitted:
            # Run by spark-submit, its --master and --conf decide; run by pnl.sh, local mode.
            builder = builder.master(os.environ.get("PNL_SPARK_MASTER", "local[2]"))
            builder = builder.config("spark.ui.enabled", "false")
            builder = builder.config("spark.sql.shuffle.partitions", os.environ.get("PNL_SPARK_PARTITIONS", "4"))
            # A summary is a few kilobytes: Spark's default cost of opening a file (4 MB) would make a task of every
            # 32 files; a task of a few thousand is as quick to plan and far quicker to run.
            builder = builder.config("spark.sql.files.openCostInBytes", "65536")
            # Past 32 paths Spark lists them by a job of a task a path; here the driver looks them up itself.
            builder = builder.config("spark.sql.sources.parallelPartitionDiscovery.threshold", "100000000")
        builder = builder.config("spark.ui.showConsoleProgress", "false")
        self.spark = started(builder)
        self.spark.sparkContext.setLogLevel("ERROR")

    def load(self, joined, expected, statements):
        """Reads the joined summaries (`joined`: a path, a glob or a URI; a line a summary, `{"file": PATH, "summary":
        ITS JSON}`) into `summary_json`, then runs reader.spark.sql (`statements` is pnl.py's reading of a SQL file's
        `-- name:` statements). `expected`, when known, is how many summaries they hold: a different count is an
        error, never a smaller total."""
        spark = self.spark
        raw = spark.read.schema(JOINED_SCHEMA).option("mode", "FAILFAST").json(joined)
        raw.select("file", "summary.*").createOrReplaceTempView("summary_files_read")
        # Read once: every table of the reader comes from it.
        spark.sql("CACHE TABLE summary_json AS SELECT * FROM summary_files_read")
        for _, text in statements(os.path.join(HERE, "reader.spark.sql")):
            spark.sql(text)
        read = spark.sql("SELECT COUNT(*) FROM summary_files").collect()[0][0]
        if expected is not None and read != expected:
            raise SparkFailed("Spark read %d of the %d verified summaries" % (read, expected))

    def execute(self, text, rows):
        """Runs one statement; its rows as tuples when `rows`, else None."""
        frame = self.spark.sql(shimmed(text))
        return [tuple(row) for row in frame.collect()] if rows else None

    def close(self):
        self.spark.stop()

