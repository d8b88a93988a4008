//! `Serialize` and `Deserialize` for generated enums (feature `serde`). A
//! variant is written as its record's id and slug and its fields by name:
//!
//! ```json
//! {"id": "503f49fe39cf5793", "slug": "unable-to-persist-session-q-seq-v-v",
//!  "fields": {"ps_id": "s1", "seq": "3", "err": "nats: timeout"}}
//! ```
//!
//! and read back from the id (or, without one, the slug) and the fields, each
//! of the JSON type of its placeholder: a number for `%d` and `%f`, a boolean
//! for `%t`, a string otherwise. A kind is written as its record's id and
//! read from its id, slug or variant name.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::str::FromStr;

use serde::de::Error as _;
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::codegen::catalog_enum::CatalogEnum;
use crate::entry::Entry;
use crate::format::ValueKind;
use crate::model::Value;

/// Writes `error` as `{"id", "slug", "fields": {...}}`.
pub fn serialize<E: CatalogEnum, S: Serializer>(error: &E, serializer: S) -> Result<S::Ok, S::Error> {
    let metadata = error.metadata();
    let mut state = serializer.serialize_struct("Error", 3)?;
    state.serialize_field("id", &*metadata.record().id)?;
    state.serialize_field("slug", &*metadata.record().slug)?;
    state.serialize_field("fields", &Fields { metadata, values: error.values() })?;
    state.end()
}

struct Fields<'a> {
    metadata: &'a Entry,
    values: Vec<Value<'a>>,
}

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.values.len()))?;
        for (field, value) in self.metadata.template.fields.iter().zip(&self.values) {
            map.serialize_entry(&*field.name, &value.to_json())?;
        }
        map.end()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    id: Option<String>,
    slug: Option<String>,
    #[serde(default)]
    fields: BTreeMap<String, RawValue>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawValue {
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str(String),
}

/// The generated kind enum's lookups: its sorted tables find a record by
/// id or slug without a scan of every entry.
pub struct Lookups {
    /// The index of the record with this id.
    pub by_id: fn(&str) -> Option<usize>,
    /// The index of the first record with this slug.
    pub by_slug: fn(&str) -> Option<usize>,
}

/// Reads a variant written by [`serialize`].
pub fn deserialize<'de, E: CatalogEnum, D: Deserializer<'de>>(
    deserializer: D,
    lookups: Lookups,
) -> Result<E, D::Error> {
    let mut raw = Raw::deserialize(deserializer)?;
    let entries = E::entries();
    let index = match (&raw.id, &raw.slug) {
        (Some(id), _) => (lookups.by_id)(id),
        (None, Some(slug)) => (lookups.by_slug)(slug),
        (None, None) => return Err(D::Error::missing_field("id")),
    };
    let key = raw.id.as_deref().or(raw.slug.as_deref()).unwrap_or_default();
    let index = index.ok_or_else(|| D::Error::custom(format!("no record has the id or slug `{key}`")))?;
    let metadata = &entries[index];
    let mut values = Vec::with_capacity(metadata.template.fields.len());
    for field in metadata.template.fields.iter() {
        let raw_value = raw
            .fields
            .remove(&*field.name)
            .ok_or_else(|| D::Error::custom(format!("missing field `{}` of `{}`", field.name, metadata.name)))?;
        let value = match (field.kind, raw_value) {
            (ValueKind::Int, RawValue::Int(n)) => Value::Int(n),
            (ValueKind::Int, RawValue::Uint(n)) => Value::Uint(n),
            // An integer beyond 64 bits is written as its decimal text.
            (ValueKind::Int, RawValue::Str(text)) if Value::integer(&text).is_some() => {
                Value::integer(&text).unwrap_or(Value::Int(0))
            }
            (ValueKind::Float, RawValue::Float(x)) => Value::Float(x),
            (ValueKind::Float, RawValue::Int(n)) => Value::Float(n as f64),
            (ValueKind::Float, RawValue::Uint(n)) => Value::Float(n as f64),
            (ValueKind::Bool, RawValue::Bool(b)) => Value::Bool(b),
            (ValueKind::Text | ValueKind::Quoted, RawValue::Str(text)) => Value::Str(Cow::Owned(text)),
            (kind, _) => {
                let expected = match kind {
                    ValueKind::Int => "an integer",
                    ValueKind::Float => "a number",
                    ValueKind::Bool => "a boolean",
                    ValueKind::Text | ValueKind::Quoted => "a string",
                };
                return Err(D::Error::custom(format!(
                    "field `{}` of `{}`: expected {expected}",
                    field.name, metadata.name
                )));
            }
        };
        values.push(value);
    }
    if let Some(unknown) = raw.fields.keys().next() {
        return Err(D::Error::custom(format!("`{}` has no field `{unknown}`", metadata.name)));
    }
    E::from_values(index, values)
        .ok_or_else(|| D::Error::custom(format!("a field value does not fit its type in `{}`", metadata.name)))
}

/// Reads a kind from its id, slug or variant name.
pub fn deserialize_kind<'de, K, D>(deserializer: D) -> Result<K, D::Error>
where
    K: FromStr,
    K::Err: Display,
    D: Deserializer<'de>,
{
    let text = Cow::<str>::deserialize(deserializer)?;
    text.parse().map_err(D::Error::custom)
}
