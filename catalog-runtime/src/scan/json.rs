//! A match as the JSON object `errcat scan --json` writes (and Python's
//! `Catalog.classify` gives, column by column).

use serde_json::{json, Map, Value as Json};

use super::{Details, EventParts, Part};
use crate::envelope::EnvelopeKind;
use crate::format::Piece;
use crate::matcher::Match;
use crate::Catalog;

/// `found` (a match of `catalog`) as a JSON object: `id`, `slug`, `name`,
/// `severity`, `dataset` (its name, `null` when none), `span`, `fields` (by name), `args` (the values in
/// placeholder order: a value rendered twice appears twice); with
/// `details`, `field_spans` (by name, `null` when not known; the whole
/// object `null` when none is) and `context` when there is a trace, in an
/// envelope `envelope` and `message_span`, and for an event of several
/// lines the keys of [`event_object`]. Spans are `[start, end]` in
/// bytes of the line as read (see [`Details`]).
pub fn match_object(catalog: &Catalog, found: &Match<'_>, details: Option<&Details>) -> Map<String, Json> {
    let entry = &catalog.entries()[found.index];
    let record = entry.record();
    let span = |range: &std::ops::Range<usize>| json!([range.start, range.end]);
    let fields: Map<String, Json> =
        entry.field_names().zip(&found.values).map(|(name, value)| (name.to_owned(), value.to_json())).collect();
    let args: Vec<Json> = entry
        .template
        .pieces
        .iter()
        .filter_map(|piece| match piece {
            Piece::Value { field, .. } => found.values.get(usize::from(*field)).map(|value| value.to_json()),
            Piece::Literal(_) => None,
        })
        .collect();
    let mut object = Map::new();
    object.insert("id".into(), json!(record.id));
    object.insert("slug".into(), json!(record.slug));
    object.insert("name".into(), json!(entry.name));
    object.insert("severity".into(), json!(record.severity_or_default().as_str()));
    object.insert("dataset".into(), json!(catalog.dataset(found.index)));
    object.insert("span".into(), span(&found.span));
    object.insert("fields".into(), Json::Object(fields));
    object.insert("args".into(), Json::Array(args));
    if let Some(details) = details {
        let field_spans = details.field_spans.as_ref().map_or(Json::Null, |spans| {
            let by_name = entry
                .field_names()
                .zip(spans)
                .map(|(name, at)| (name.to_owned(), at.as_ref().map_or(Json::Null, span)));
            Json::Object(by_name.collect())
        });
        object.insert("field_spans".into(), field_spans);
        if details.envelope != EnvelopeKind::None {
            object.insert("envelope".into(), json!(details.envelope.name()));
            object.insert("message_span".into(), span(&details.message_span));
        }
        if let Some(context) = &details.context {
            object.insert("context".into(), json!(context));
        }
        if let Some(event) = &details.event {
            object.extend(event_object(catalog, event));
        }
    }
    object
}

/// `event` as the keys `errcat scan --json` adds to the object of an event
/// of several lines (a match's or an unmatched event's): `start_line` and
/// `end_line`, `intro` when a log line introduced the trace, `causes` (the
/// nearest first) when there are any. A part is an object of `line` and
/// `text`, with the keys of its match but `span` (`id`, `slug`, `name`,
/// `severity`, `dataset`, `fields`, `args`) when a record explains it.
pub fn event_object(catalog: &Catalog, event: &EventParts) -> Map<String, Json> {
    let mut object = Map::new();
    object.insert("start_line".into(), json!(event.start_line));
    object.insert("end_line".into(), json!(event.end_line));
    if let Some(intro) = &event.intro {
        object.insert("intro".into(), part_object(catalog, intro));
    }
    if !event.causes.is_empty() {
        let causes = event.causes.iter().map(|cause| part_object(catalog, cause)).collect();
        object.insert("causes".into(), Json::Array(causes));
    }
    object
}

fn part_object(catalog: &Catalog, part: &Part) -> Json {
    let mut object = Map::new();
    object.insert("line".into(), json!(part.line));
    object.insert("text".into(), json!(part.text));
    if let Some(found) = &part.found {
        let mut matched = match_object(catalog, found, None);
        // Its span is in `text`, not in a line as read: left out.
        matched.remove("span");
        object.extend(matched);
    }
    Json::Object(object)
}
