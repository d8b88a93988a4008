//! A match as the JSON object `errcat scan --json` writes (and Python's
//! `Catalog.classify` gives, column by column).

use serde_json::{json, Map, Value as Json};

use super::Details;
use crate::envelope::EnvelopeKind;
use crate::format::Piece;
use crate::matcher::Match;
use crate::Catalog;

/// `found` (a match of `catalog`) as a JSON object: `id`, `slug`, `name`,
/// `severity`, `dataset` (its name, `null` when none), `span`, `fields` (by name), `args` (the values in
/// placeholder order: a value rendered twice appears twice); with
/// `details`, `field_spans` (by name, `null` when not known; the whole
/// object `null` when none is) and `context` when there is a trace, and in
/// an envelope `envelope` and `message_span`. Spans are `[start, end]` in
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
    }
    object
}
