//! The command line.

use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::embedded;

const EXAMPLES: &str = "\
Examples:
  errcat scan examples/nats-server.log        every known error in a log, then a summary
  errcat scan --json server.log.gz | jq .     one JSON object per matching line
  errcat scan --unmatched ERR,WRN server.log  error and warning lines no record explains
  errcat scan --count --html report.html *.log  a report to open in a browser and share
  errcat explain 'unable to persist session \"s1\" (seq=3): nats: timeout'
  errcat show UnableToPersistSession          one record in full
  errcat --data my-records/ check             validate a dataset directory
  errcat names my-records/                    pin its variant and field names
  errcat diff old-records/ my-records/        what an update changes, and its semver impact
  errcat scan -f --metrics 127.0.0.1:9187 server.log  Prometheus metrics of the errors logged
  errcat rules > errcat.rules.yml             Prometheus alerting rules for the catalog's errors";

const SCAN_EXAMPLES: &str = "\
Examples:
  errcat scan server.log                      every known error, then a summary
  errcat scan --count server.log.1.gz server.log
  errcat scan --count --html report.html server.log   a report to share
  errcat scan --follow server.log             report errors as they are logged
  errcat scan --count -f --metrics 127.0.0.1:9187 server.log   serve them to Prometheus
  tail -F server.log | errcat scan --json     the same, one JSON object per match
  journalctl -f -u nats-server | errcat scan  a live journal

Exit status: 0 when some line matched, 1 when none did, 2 on any error.";

/// Explain error messages and scan logs against a catalog of documented errors.
///
/// The catalog is the datasets compiled into errcat (`errcat datasets` lists
/// them: nats-server, Node.js, Django, cargo, Kafka and the library's seed
/// records), some of them with --dataset, or the records of dataset
/// directories given with --data.
#[derive(Debug, Parser)]
#[command(name = "errcat", version, after_help = EXAMPLES)]
pub struct Cli {
    /// Use the records under DIR, loaded at run time, instead of the embedded datasets.
    ///
    /// Repeat it to use several datasets as one catalog (a host running
    /// several systems); their record ids must differ. --data replaces the
    /// embedded datasets; with --dataset, the ones it names are used too.
    /// Without --data, $ERRCAT_DATA, a list of directories separated as in
    /// $PATH. Each directory's records are of the dataset named after its
    /// last component.
    #[arg(long, global = true, value_name = "DIR", env = "ERRCAT_DATA", value_delimiter = PATH_LIST_SEPARATOR)]
    pub data: Vec<PathBuf>,

    /// Use this embedded dataset (repeatable) instead of all of them.
    ///
    /// One of the names `errcat datasets` lists; given with --data, its
    /// records are used beside the directories'. With neither --dataset
    /// nor --data, $ERRCAT_DATASET, names separated by commas.
    #[arg(long = "dataset", global = true, value_name = "NAME", value_parser = dataset_name)]
    pub datasets: Vec<String>,

    /// Load --data from its record files, without the compiled-catalog cache.
    ///
    /// The catalog compiled from a --data directory is cached, and reused
    /// while no record file changes (same names, sizes, modification times),
    /// in $ERRCAT_CACHE_DIR, else $XDG_CACHE_HOME/error-catalog, else
    /// ~/.cache/error-catalog. `check` always reads the files.
    #[arg(long, global = true)]
    pub no_cache: bool,

    /// When to colour the output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Read every --data message in this format syntax, instead of the one
    /// chosen from each record's file extension and call: go, plain, printf,
    /// python, pattern, js-format, js-template, python-brace, rust,
    /// java-format, slf4j, message-format, csharp.
    #[arg(long, global = true, value_name = "DIALECT", value_parser = parse_dialect)]
    pub dialect: Option<error_catalog::Dialect>,

    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The directory a dataset command works on: its own argument `dir`,
    /// else `--data`, else `data`.
    pub fn dataset_dir<'a>(&'a self, dir: &'a Option<PathBuf>) -> &'a Path {
        dir.as_deref().or(self.data.first().map(PathBuf::as_path)).unwrap_or(Path::new("data"))
    }
}

/// How $ERRCAT_DATA separates directories, as $PATH does.
const PATH_LIST_SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

fn parse_dialect(name: &str) -> Result<error_catalog::Dialect, String> {
    error_catalog::Dialect::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = error_catalog::Dialect::ALL.iter().map(|d| d.name()).collect();
        format!("unknown dialect {name:?}; one of {}", names.join(", "))
    })
}

/// The embedded datasets to use when neither --dataset nor --data names
/// any: those of $ERRCAT_DATASET (all when it is unset or empty).
pub fn default_datasets() -> Result<Vec<String>, String> {
    let names = std::env::var("ERRCAT_DATASET").unwrap_or_default();
    let names = names.split(',').map(str::trim).filter(|name| !name.is_empty());
    names.map(|name| dataset_name(name).map_err(|err| format!("$ERRCAT_DATASET: {err}"))).collect()
}

fn dataset_name(name: &str) -> Result<String, String> {
    if embedded::names().any(|known| known == name) {
        return Ok(name.to_owned());
    }
    let names: Vec<&str> = embedded::names().collect();
    Err(format!("no dataset is called {name:?}; one of {} (`errcat datasets` lists them)", names.join(", ")))
}

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When standard output is a terminal and NO_COLOR is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Explain messages or log lines: the matching record, its fields, documentation and fix.
    #[command(
        after_help = "Examples:\n  errcat explain 'unable to persist session \"s1\" (seq=3): nats: timeout'\n  grep ERR server.log | errcat explain"
    )]
    Explain {
        /// Messages or log lines to explain (standard input, one per line, when none).
        messages: Vec<String>,
    },

    /// Classify every line of log files (plain or .gz), or of live logs.
    ///
    /// Lines from a pipe or a terminal are classified as they arrive: each
    /// match is printed as soon as its line is read, so `tail -F log | errcat
    /// scan` and `journalctl -f | errcat scan` report errors while they happen.
    #[command(after_help = SCAN_EXAMPLES)]
    Scan(ScanArgs),

    /// List the catalog's records.
    ///
    /// On a terminal, messages are cut to its width; piped, they are whole.
    #[command(
        after_help = "Examples:\n  errcat list\n  errcat list --severity warning --tag mqtt\n  errcat list --json | jq -r .slug"
    )]
    List {
        /// One JSON object per record (id, slug, name, severity, repo, errorMessage, messagePattern, tags).
        #[arg(long)]
        json: bool,
        /// Only records of this repository (owner/name).
        #[arg(long)]
        repo: Option<String>,
        /// Only records with this tag.
        #[arg(long)]
        tag: Option<String>,
        /// Only records of this severity (error, warning, ...).
        #[arg(long)]
        severity: Option<String>,
    },

    /// Prometheus alerting rules (YAML) for the catalog's records, on standard output.
    ///
    /// One alert per record of the severity asked for (error by default),
    /// firing when `errcat scan --metrics` counted a match in the last 5
    /// minutes; named by the record's variant name (pinned by the names
    /// file); the record's message as summary, its documentation and first
    /// solution as description, its source link as runbook_url.
    #[command(
        after_help = "Examples:\n  errcat rules > errcat.rules.yml && promtool check rules errcat.rules.yml\n  errcat --data my-records/ rules --severity warning --tag mqtt\n  errcat rules --tests errcat.rules.test.yml > errcat.rules.yml && promtool test rules errcat.rules.test.yml"
    )]
    Rules {
        /// Alert on records of this severity.
        #[arg(long, default_value = "error")]
        severity: String,
        /// Only records of this repository (owner/name).
        #[arg(long)]
        repo: Option<String>,
        /// Only records with this tag.
        #[arg(long)]
        tag: Option<String>,
        /// Also write a `promtool test rules` file to FILE, for rules saved as
        /// errcat.rules.yml beside it.
        #[arg(long, value_name = "FILE")]
        tests: Option<PathBuf>,
    },

    /// List the datasets compiled into errcat: name, records, source project and version.
    ///
    /// Without --data, errcat uses all of them (--dataset chooses some); the
    /// `dataset` field of `list --json`, `show` and `scan --json`, and the
    /// `dataset` label of `scan --metrics`, name the one a record is of.
    #[command(after_help = "Examples:\n  errcat datasets\n  errcat --dataset django scan app.log")]
    Datasets {
        /// One JSON object per dataset (name, records, project, version).
        #[arg(long)]
        json: bool,
    },

    /// Show one record in full.
    #[command(
        after_help = "Examples:\n  errcat show UnableToPersistSession\n  errcat show 503f49fe39cf5793\n  errcat show --json unable-to-persist-session-q-seq-v-v | jq .solutions"
    )]
    Show {
        /// The record as one JSON object, with the dataset's field names.
        #[arg(long)]
        json: bool,
        /// The record's id, slug or variant name.
        key: String,
    },

    /// Validate a dataset directory with the loader and compiler the macro uses.
    #[command(
        after_help = "Reports load errors (file:line:column), messagePattern/format disagreements,\nvariant-name collisions and records that can never win. Exit status 1 when there are errors.\n\nExamples:\n  errcat check data/\n  errcat check datasets/nats-server"
    )]
    Check {
        /// The dataset directory (default: the --data directory, else `data`).
        dir: Option<PathBuf>,
    },

    /// Write or update the dataset's names file, which pins every record's variant and field names.
    ///
    /// The file is DIR/error-catalog.names, one line per record (sorted by
    /// id): `<id> <VariantName> [<field>:<type> ...]`. The `#[catalog]` macro,
    /// `#[derive(Catalog)]` and --data use it when it is there: a record it
    /// lists keeps its names whatever records are added or removed; other
    /// records are named by the usual rule, avoiding every pinned name. An
    /// update keeps every pin, adds the records not pinned yet, and drops the
    /// pins of records that are gone. A library should commit the file.
    #[command(
        after_help = "Exit status 1 when the dataset has errors (the names file is then left as it is).\n\nExamples:\n  errcat names data/nats-io/nats-server\n  errcat --data my-records/ names"
    )]
    Names {
        /// The dataset directory (default: the --data directory, else `data`).
        dir: Option<PathBuf>,
    },

    /// Group the log lines no record explains into templates, and write each as a draft record.
    ///
    /// Every line that no record of the catalog explains (or only those of
    /// --level), without its log prefix, is masked (numbers, hex ids, IPs,
    /// paths, quoted strings, key=value values become typed values) and
    /// grouped with the lines of the same template. Each group becomes a draft
    /// record: `errorMessage` with typed placeholders in the --dialect (Go by
    /// default: %s, %d, %q...), a `messagePattern` that matches the group's
    /// lines, the lines' severity, and documentation with the count, the first
    /// and last place and examples. Its id is derived from the template, so it
    /// is the same on every run. With --out the drafts are written there, one
    /// file per record, in the layout --data and `errcat check` read.
    #[command(
        after_help = "Exit status: 0 when some group was found, 1 when none was, 2 on any error.\n\nExamples:\n  errcat draft server.log                          the groups, most lines first\n  errcat draft --level ERR,WRN --out drafts/ *.log  draft records of the errors and warnings\n  errcat check drafts/ && errcat --data drafts/ scan server.log"
    )]
    Draft {
        /// Log files; `-` or none for standard input. `.gz` files are decompressed.
        files: Vec<PathBuf>,
        /// Write the draft records to DIR (created if needed), one `<id>.json` each.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Only lines at these levels (e.g. ERR,WRN); every unexplained line by default.
        #[arg(long, value_name = "LEVELS", value_delimiter = ',', value_parser = log_level)]
        level: Vec<String>,
        /// Leave out groups of fewer lines.
        #[arg(long, value_name = "N", default_value_t = 1)]
        min_count: u64,
        /// One JSON object per group (id, template, messagePattern, count, severity, first, last, examples).
        #[arg(long)]
        json: bool,
        /// Worker threads classifying the lines (default: one per core).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
    },

    /// Compare two dataset directories: what changes in the generated enum, and the semver impact.
    ///
    /// Records are matched by id: added, removed, renamed, with changed
    /// fields (names or types), with changed messages or patterns, with
    /// changed documentation. Each dataset is named with its own names file,
    /// as the macro would. For a crate whose public API contains the enum, a
    /// removed or renamed variant or field, or a changed field type, is
    /// breaking; an added variant is breaking unless the enum is
    /// `#[non_exhaustive]` (then minor); messages and documentation are patch.
    #[command(
        after_help = "Exit status: 0 when the datasets are the same, 1 when they differ, 2 on any error.\n\nExamples:\n  errcat diff data.old/ data/\n  errcat diff --non-exhaustive --json data.old/ data/ | jq -r .semver"
    )]
    Diff {
        /// The dataset before the update.
        old: PathBuf,
        /// The dataset after the update.
        new: PathBuf,
        /// One JSON object: every change, the semver level and its reasons.
        #[arg(long)]
        json: bool,
        /// The enum is `#[non_exhaustive]`: an added variant is a minor change.
        #[arg(long)]
        non_exhaustive: bool,
    },

    /// Build a dataset from the error messages in a project's source code.
    ///
    /// Reads every file of the language under SRC, writes one record per
    /// message into OUT/NAME (replacing the record files there) and its
    /// README.md. The same source gives the same files, ids included.
    #[command(
        after_help = "See docs/extract.md.\n\nExamples:\n  errcat extract --lang go --src nats-server --repo nats-io/nats-server --sha v2.12.0 --out datasets\n  errcat check datasets/nats-server"
    )]
    Extract(ExtractArgs),
}

/// `errcat extract`'s options.
#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The source language: go, rust, java, python or javascript.
    #[arg(long)]
    pub lang: String,
    /// The root of the source tree.
    #[arg(long)]
    pub src: PathBuf,
    /// The project on GitHub, OWNER/NAME (ids and source links use it).
    #[arg(long)]
    pub repo: String,
    /// The commit or release tag of the source.
    #[arg(long)]
    pub sha: String,
    /// Where the dataset's folder is written.
    #[arg(long)]
    pub out: PathBuf,
    /// The dataset's folder under --out (default: the repository's name).
    #[arg(long)]
    pub name: Option<String>,
    /// `analyzedAt` and `datasetVersion` of every record (keep it to keep the files the same).
    #[arg(long, default_value = "2026-11-29T00:00:00.000Z")]
    pub stamp: String,
}

/// `errcat scan`'s options, as the scan takes them.
#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Log files; `-` or none for standard input. `.gz` files are decompressed.
    pub files: Vec<PathBuf>,
    /// One JSON object per matching line.
    #[arg(long, conflicts_with = "count")]
    pub json: bool,
    /// Only the summary table.
    #[arg(long)]
    pub count: bool,
    /// Also list lines at these levels (e.g. ERR,WRN) that match no record.
    #[arg(long, value_name = "LEVELS", value_delimiter = ',', value_parser = log_level)]
    pub unmatched: Vec<String>,
    /// Also write a self-contained HTML report (overview, timeline, one card per error) to FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "follow")]
    pub html: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Keep reading the files as they grow, like `tail -F`, until Ctrl-C.
    ///
    /// The files may be directories (every file under them, at any depth)
    /// and globs ('/var/log/pods/*/*/*.log'): files that appear are read
    /// from their start, files that go are read to their end and closed,
    /// compressed ones are skipped. Starts at the end of the files there
    /// are (see --from-start); follows a file renamed (logrotate, kubelet,
    /// Docker: files are known by inode, not name) or truncated in place
    /// (copytruncate), and a file that appears later. File-system events
    /// wake errcat (see --poll). Ctrl-C or SIGTERM prints the summary and
    /// exits with the usual status.
    #[arg(short, long)]
    pub follow: bool,
    /// With --follow: check the files every 100 ms instead of waiting for
    /// file-system events (used anyway where events cannot be had).
    #[arg(long, requires = "follow")]
    pub poll: bool,
    /// With --follow: the most files open at once; past it, the file read
    /// least recently is closed, its position kept, and opened again when
    /// it grows.
    #[arg(long, value_name = "N", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..), requires = "follow")]
    pub max_open_files: u32,
    /// With --follow: keep each file's identity and position in FILE, so
    /// that a restart reads on where the last run stopped (written every
    /// second and at exit, atomically).
    #[arg(long, value_name = "FILE", requires = "follow")]
    pub state: Option<PathBuf>,
    /// With --follow: report the lines already in the files too.
    #[arg(long, requires = "follow")]
    pub from_start: bool,
    /// Serve the counts as Prometheus metrics on ADDR (HOST:PORT) until Ctrl-C or SIGTERM.
    ///
    /// GET /metrics gives one errcat_matches_total series per record of
    /// the catalog from the start (at 0), lines read per input, unmatched
    /// lines per level and input errors per reason; GET /-/healthy is for
    /// probes. Needs --follow with files, or standard input. Ctrl-C or
    /// SIGTERM ends it with status 0 (problems with the inputs are told on
    /// stderr and counted in errcat_input_errors_total).
    #[arg(long, value_name = "ADDR", conflicts_with = "html")]
    pub metrics: Option<String>,
    /// With --metrics: label match and line counts with these parts of
    /// the workload a file is of (namespace, pod, container), read from
    /// kubelet's and Docker's log paths.
    #[arg(long, value_name = "PARTS", value_delimiter = ',', value_parser = origin_part, requires = "metrics")]
    pub metrics_labels: Vec<crate::origin::Part>,
    /// With --metrics-labels: the most workload-labelled series; past it,
    /// counts go to the series without those labels and
    /// errcat_series_dropped_total counts them.
    #[arg(long, value_name = "N", default_value_t = 10_000, requires = "metrics_labels")]
    pub metrics_max_series: usize,
    /// How the lines are wrapped: auto (chosen for each input from its
    /// first lines), none, docker, cri, journald, syslog, logfmt, json,
    /// or json:KEY (the message under KEY).
    ///
    /// The message is taken out of its envelope and unescaped before it
    /// is matched; the pieces of long Docker and CRI lines are joined.
    /// With --follow, auto reads plain lines.
    #[arg(long, value_name = "ENVELOPE", default_value = "auto", value_parser = envelope)]
    pub envelope: EnvelopeChoice,
    /// Only matches of records at least this severe: fatal, critical,
    /// error, warning, info, debug, trace.
    #[arg(long, value_name = "SEVERITY", value_parser = severity)]
    pub min_severity: Option<error_catalog::Severity>,
}

/// `--threads N`, else one per core.
pub fn worker_threads(asked: Option<u16>) -> usize {
    asked.map_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()), usize::from)
}

/// A part of a workload, as --metrics-labels names it.
fn origin_part(name: &str) -> Result<crate::origin::Part, String> {
    crate::origin::Part::from_name(name)
        .ok_or_else(|| "not a part of a workload (namespace, pod, container)".to_owned())
}

/// A log level by any of its names (`ERR`, `error`, `WARNING`, ...).
fn log_level(name: &str) -> Result<String, String> {
    match error_catalog::LogLevel::from_name(name) {
        Some(_) => Ok(name.to_owned()),
        None => Err("not a log level (TRC, DBG, INF, WRN, ERR, FTL, SYS, or TRACE, DEBUG, INFO, WARNING, ERROR, ...)"
            .to_owned()),
    }
}

/// `--envelope`: one envelope for every input, or (auto) each input's own.
#[derive(Clone, Debug)]
pub struct EnvelopeChoice(pub Option<error_catalog::Envelope>);

fn envelope(name: &str) -> Result<EnvelopeChoice, String> {
    if name.eq_ignore_ascii_case("auto") {
        return Ok(EnvelopeChoice(None));
    }
    match error_catalog::Envelope::from_name(name) {
        Some(envelope) => Ok(EnvelopeChoice(Some(envelope))),
        None => Err(format!("not an envelope; one of auto, {}", error_catalog::ENVELOPE_NAMES)),
    }
}

/// A record severity by name (`warn` for `warning`), in any case.
fn severity(name: &str) -> Result<error_catalog::Severity, String> {
    match crate::severity::asked(&name.to_ascii_lowercase()) {
        error_catalog::Severity::Other(_) => {
            Err("not a severity (fatal, critical, error, warning, info, debug, trace)".to_owned())
        }
        severity => Ok(severity),
    }
}
