//! `errcat scan --follow` and `errcat scan --metrics`: live inputs (files
//! followed by [`Follower`], or standard input), read until Ctrl-C or SIGTERM
//! or the end of a pipe; each chunk is classified here and what is found goes
//! to the sinks (the report and, with `--metrics`, the counters served).

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use error_catalog::{Catalog, ChunkClassifier, Envelope, LogLevel, ScanOptions};

use super::follow::{self, FileId, Follower, Item, INTERVAL};
use super::{Report, Source};
use crate::args::ScanArgs;
use crate::exit::{FOUND, TROUBLE};
use crate::input::{self, CHUNK};
use crate::metrics::{server, Metrics, Problem};
use crate::origin::Origin;
use crate::pipeline::{Event, LevelOf};
use crate::style::Out;

pub fn run(catalog: &Catalog, files: &[PathBuf], options: &ScanArgs, out: &mut Out) -> io::Result<u8> {
    let stdin = files.is_empty() || (files.len() == 1 && files[0] == Path::new("-"));
    if options.follow && (files.is_empty() || files.iter().any(|path| path == Path::new("-"))) {
        eprintln!(
            "errcat: --follow reads files: name them (a pipe is followed without it: `tail -F log | errcat scan`)"
        );
        return Ok(TROUBLE);
    }
    if !options.follow && !stdin {
        eprintln!("errcat: --metrics reads live inputs: add --follow to follow files, or pipe the log in");
        return Ok(TROUBLE);
    }
    let labels: Vec<String> =
        if stdin { vec!["<stdin>".to_owned()] } else { files.iter().map(|p| p.display().to_string()).collect() };
    let metrics = options
        .metrics
        .as_ref()
        .map(|_| Arc::new(Metrics::new(catalog, &labels, &options.metrics_labels, options.metrics_max_series)));
    let server = match (&options.metrics, &metrics) {
        (Some(address), Some(metrics)) => match server::start(address, Arc::clone(metrics)) {
            Ok(server) => {
                eprintln!("errcat: serving metrics on http://{}/metrics", server.address);
                Some(server)
            }
            Err(message) => {
                eprintln!("errcat: {message}");
                return Ok(TROUBLE);
            }
        },
        _ => None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    let items: Box<dyn Iterator<Item = Item>> = if stdin {
        Box::new(piped(options.envelope.0.clone(), stop.clone()))
    } else {
        let follow_options = follow::Options {
            from_start: options.from_start,
            envelope: options.envelope.0.clone(),
            poll: options.poll,
            state: options.state.clone(),
            max_open: options.max_open_files as usize,
        };
        match Follower::new(files, follow_options, stop.clone()) {
            Ok(follower) => Box::new(follower),
            Err(message) => {
                eprintln!("errcat: {message}");
                return Ok(TROUBLE);
            }
        }
    };
    let mut report = Report::new(catalog, options);
    let sinks = Sinks { catalog, options, metrics: metrics.as_deref() };
    let mut files = HashMap::new();
    let result = sinks.consume(items, &mut report, &mut files, out);
    if let Some(server) = server {
        server.stop();
    }
    result?;
    let mut left: Vec<(FileId, Followed)> = files.into_iter().collect();
    left.sort_by_key(|(id, _)| *id);
    for (_, file) in &left {
        report.end_of(&file.source, out)?;
    }
    let status = report.finish(out)?;
    // An exporter stopped by a signal has done its job (service managers
    // read another status as a failure): the problems it met were told on
    // stderr and counted in `errcat_input_errors_total`.
    Ok(if metrics.is_some() && stop.load(Ordering::Relaxed) { FOUND } else { status })
}

struct Followed {
    /// The argument that found it.
    input: usize,
    source: Source,
    origin: Origin,
}

struct Sinks<'a> {
    catalog: &'a Catalog,
    options: &'a ScanArgs,
    metrics: Option<&'a Metrics>,
}

impl Sinks<'_> {
    fn consume(
        &self,
        items: impl Iterator<Item = Item>,
        report: &mut Report<'_>,
        files: &mut HashMap<FileId, Followed>,
        out: &mut Out,
    ) -> io::Result<()> {
        let levels = &self.options.unmatched;
        let reported_level = super::unmatched_level(levels);
        // Metrics count every unmatched line by its level; the report lists
        // those of the levels asked for.
        let level_of: &LevelOf<'_> = if self.metrics.is_some() { &Metrics::level_of } else { &reported_level };
        let unmatched = (self.metrics.is_some() || !levels.is_empty()).then_some(level_of);
        let options = ScanOptions { envelope: Envelope::None, unmatched, line_text: false, details: self.options.json };
        let mut classifier = ChunkClassifier::new(self.catalog, options);
        for item in items {
            match item {
                Item::Opened { file, input, label, origin } => {
                    let source = Source::of_workload(&label, &origin);
                    files.insert(file, Followed { input, source, origin });
                }
                Item::Lines { file, chunk, envelope } => {
                    classifier.set_envelope(&envelope);
                    let classified = classifier.classify(&chunk.data, chunk.first_line);
                    let lines = classified.line_breaks + u64::from(!chunk.data.ends_with(b"\n"));
                    if let Some(file) = files.get_mut(&file) {
                        self.to_report(file, lines, classified.events, report, out)?;
                    }
                }
                Item::TooLong { file, lines } => {
                    let events = lines.into_iter().map(|line| Event::TooLong { line }).collect();
                    if let Some(file) = files.get_mut(&file) {
                        self.to_report(file, 0, events, report, out)?;
                    }
                }
                Item::Closed { file } => {
                    if let Some(file) = files.remove(&file) {
                        report.end_of(&file.source, out)?;
                    }
                }
                Item::Problem { problem, message } => {
                    if let Some(metrics) = self.metrics {
                        metrics.problem(problem);
                    }
                    report.trouble(&message, out)?;
                }
                Item::CaughtUp => out.flush()?,
            }
        }
        Ok(())
    }

    /// Counts the events of `lines` lines of `file`, then reports them (an
    /// unmatched line only if its level was asked for).
    fn to_report(
        &self,
        file: &mut Followed,
        lines: u64,
        mut events: Vec<Event>,
        report: &mut Report<'_>,
        out: &mut Out,
    ) -> io::Result<()> {
        if let Some(metrics) = self.metrics {
            metrics.count(file.input, &file.origin, lines, &events);
            let levels = &self.options.unmatched;
            events.retain(|event| match event {
                Event::Unmatched { level, .. } => {
                    let level = LogLevel::from_name(level);
                    level.is_some() && levels.iter().any(|wanted| LogLevel::from_name(wanted) == level)
                }
                _ => true,
            });
        }
        report.events(&mut file.source, events, out)
    }
}

/// Standard input, read on a thread of its own so that a signal ends the
/// scan even while no line comes: its items until the input ends or `stop`
/// is set. Its lines are in `envelope`, or (`None`) in the one its first
/// lines are in.
fn piped(envelope: Option<Envelope>, stop: Arc<AtomicBool>) -> impl Iterator<Item = Item> {
    let (sender, receiver) = mpsc::sync_channel(4);
    std::thread::spawn(move || {
        let mut input = match input::open(Path::new("-")) {
            Ok(input) => input,
            Err(message) => {
                let _ = sender.send(Item::Problem { problem: Problem::Unreadable, message });
                return;
            }
        };
        input.choose_envelope_when_read(envelope.as_ref());
        let opened = Item::Opened { file: 0, input: 0, label: input.label.clone(), origin: Origin::default() };
        if sender.send(opened).is_err() {
            return;
        }
        let (mut carry, mut next_line) = (Vec::new(), 1);
        loop {
            let items = match input.next_chunk(&mut carry, &mut next_line, CHUNK) {
                Ok((chunk, skipped)) => {
                    let too_long = (!skipped.is_empty()).then_some(Item::TooLong { file: 0, lines: skipped });
                    let Some(chunk) = chunk else {
                        let _ = too_long.map(|item| sender.send(item));
                        return;
                    };
                    let caught_up = chunk.input_paused.then_some(Item::CaughtUp);
                    let envelope = input.envelope().clone();
                    [too_long, Some(Item::Lines { file: 0, chunk, envelope }), caught_up]
                }
                Err(err) => {
                    let message = format!("{}: {}", input.label, input::io_message(&err));
                    [Some(Item::Problem { problem: Problem::ReadError, message }), None, None]
                }
            };
            let failed = matches!(items[0], Some(Item::Problem { .. }));
            for item in items.into_iter().flatten() {
                if sender.send(item).is_err() {
                    return;
                }
            }
            if failed {
                return;
            }
        }
    });
    std::iter::from_fn(move || loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        match receiver.recv_timeout(INTERVAL) {
            Ok(item) => return Some(item),
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
        }
    })
}
