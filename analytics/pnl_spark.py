"""The Spark engine of pnl.py (`pnl.sh --engine spark`): Apache Spark through PySpark, in local mode here
(`local[2]`, or $PNL_SPARK_MASTER), on a cluster when pnl.py is run by `spark-submit --master ...` (README.md, "On a
cluster"). It runs the same pnl.sql as DuckDB; what differs is here and in reader.spark.sql, and nowhere else:

- Reading: PySpark's JSON reader with the schema below (the same columns as reader.duckdb.sql's `columns`), one JSON
  object a file (`multiLine`), each row's file name from Spark's own (`_metadata.file_path`, a URI), joined against
  the verifier's list so that the `file` column holds the path as the verifier printed it, as in DuckDB (it breaks
  ties between sections). A verified file Spark did not read is an error, never a smaller total.
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
SCHEMA = (
    "format STRING, account STRING, exportedAt STRING, signature STRING, costsArePlaceholders BOOLEAN, "
    "commission STRUCT<name: STRING, basisPoints: BIGINT>, moneyArePlaceholders BOOLEAN, "
    f"days ARRAY<{DAY}>, declines ARRAY<{DECLINE}>, "
    f"devices ARRAY<STRUCT<device: STRING, head: BIGINT, days: ARRAY<{DAY}>, declines: ARRAY<{DECLINE}>, "
    f"credit: ARRAY<{CREDIT}>, money: ARRAY<{MONEY}>>>"
)
TEMP_TABLE = re.compile(r"CREATE OR REPLACE TEMP TABLE (\w+) AS")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
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


def key(path):
    """The name Spark gives a file, decoded: an absolute path for a local file, the URI itself otherwise."""
    return path if SCHEME.match(path) else os.path.abspath(path)


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

    def load(self, files, statements):
        """Reads `files` (paths or URIs, each verified) into `summary_json`, then runs reader.spark.sql (`statements`
        is pnl.py's reading of a SQL file's `-- name:` statements)."""
        from pyspark.sql import functions

        spark = self.spark
        raw = spark.read.schema(SCHEMA).option("multiLine", "true").option("mode", "FAILFAST").json(files)
        # Spark names a file by its URI (file:/tmp/a%20b.json): decoded ('+' is a plus in a path, not a space).
        uri = functions.expr("url_decode(replace(_metadata.file_path, '+', '%2B'))")
        local = functions.regexp_replace(uri, "^file:(//)?", "")
        named = raw.withColumn("spark_file", functions.when(uri.startswith("file:"), local).otherwise(uri))
        listed = spark.createDataFrame([(key(f), f) for f in files], "spark_file STRING, file STRING")
        joined = named.join(functions.broadcast(listed), "spark_file").drop("spark_file")
        joined.createOrReplaceTempView("summary_files_read")
        # Read once: every table of the reader comes from it.
        spark.sql("CACHE TABLE summary_json AS SELECT * FROM summary_files_read")
        for _, text in statements(os.path.join(HERE, "reader.spark.sql")):
            spark.sql(text)
        read = spark.sql("SELECT COUNT(*) FROM summary_files").collect()[0][0]
        if read != len(files):
            raise SparkFailed(
                "Spark read %d of the %d verified summaries under the names the verifier gave them" % (read, len(files)))

    def execute(self, text, rows):
        """Runs one statement; its rows as tuples when `rows`, else None."""
        frame = self.spark.sql(shimmed(text))
        return [tuple(row) for row in frame.collect()] if rows else None

    def close(self):
        self.spark.stop()

