//! Where each key of a record sits in its JSON text, so that a problem in a
//! field can name its line and column (serde_json only reports positions of
//! syntax errors).

use std::collections::HashMap;

/// Byte offsets of the values of the record's keys, and of the record itself.
#[derive(Debug, Default)]
pub struct KeySpans {
    /// Offset of the record object's `{`.
    pub record: usize,
    /// Offset of each record key's value.
    pub keys: HashMap<String, usize>,
}

/// Scans one JSON document that serde_json has already accepted. The record is
/// the object under the top-level key `record`, or the top-level object.
pub fn key_spans(text: &str) -> KeySpans {
    let bytes = text.as_bytes();
    let mut spans = KeySpans::default();
    let mut top_keys = HashMap::new();
    let mut record_keys = HashMap::new();
    // The key each open container was opened under (None for array items and the root).
    let mut stack: Vec<Option<String>> = Vec::new();
    let mut pending_key: Option<String> = None;
    let mut in_record = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i);
                let mut j = end;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                if j < bytes.len() && bytes[j] == b':' {
                    let key = text[i + 1..end - 1].to_owned();
                    let mut value = j + 1;
                    while value < bytes.len() && bytes[value].is_ascii_whitespace() {
                        value += 1;
                    }
                    match (stack.len(), in_record) {
                        (1, _) => {
                            top_keys.insert(key.clone(), value);
                        }
                        (2, true) => {
                            record_keys.insert(key.clone(), value);
                        }
                        _ => {}
                    }
                    pending_key = Some(key);
                    i = j + 1;
                    continue;
                }
                i = end;
                continue;
            }
            b'{' | b'[' => {
                let key = pending_key.take();
                if stack.len() == 1 && key.as_deref() == Some("record") && bytes[i] == b'{' {
                    in_record = true;
                    spans.record = i;
                }
                stack.push(key);
            }
            b'}' | b']' => {
                let closed = stack.pop().flatten();
                in_record &= !(closed.as_deref() == Some("record") && stack.len() == 1);
            }
            b',' => pending_key = None,
            _ => {}
        }
        i += 1;
    }
    if top_keys.contains_key("record") {
        spans.keys = record_keys;
    } else {
        spans.record = text.find('{').unwrap_or(0);
        spans.keys = top_keys;
    }
    spans
}

/// Offset of the record object's `{` alone, for a document that serde_json
/// has accepted and that holds the top-level key `record` when `wrapped`:
/// the usual `{"record": {` head is read as it is, and only another order
/// of keys needs [`key_spans`].
pub fn record_start(text: &str, wrapped: bool) -> usize {
    fn json_space(text: &str) -> &str {
        text.trim_start_matches([' ', '\t', '\n', '\r'])
    }
    if !wrapped {
        return text.find('{').unwrap_or(0);
    }
    let head = json_space(text).strip_prefix('{').map(json_space).and_then(|rest| rest.strip_prefix("\"record\""));
    match head.map(json_space).and_then(|rest| rest.strip_prefix(':')).map(json_space) {
        Some(value) if value.starts_with('{') => text.len() - value.len(),
        _ => key_spans(text).record,
    }
}

/// Offset just past the closing quote of the string starting at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_of_a_wrapped_record() {
        let text = "{\"record\":{\"id\":\"a\",\n \"tags\":[\"x\",\"y\"], \"n\": {\"id\": 1}},\"datasetVersion\":\"v\"}";
        let spans = key_spans(text);
        assert_eq!(spans.record, 10);
        assert_eq!(&text[spans.keys["id"]..spans.keys["id"] + 3], "\"a\"");
        assert_eq!(&text[spans.keys["tags"]..spans.keys["tags"] + 1], "[");
        assert_eq!(spans.keys.len(), 3, "nested keys are not record keys");
    }

    #[test]
    fn finds_keys_of_a_bare_record() {
        let text = r#" {"id": "a\"b", "errorMessage": "m"}"#;
        let spans = key_spans(text);
        assert_eq!(spans.record, 1);
        assert_eq!(&text[spans.keys["errorMessage"]..], "\"m\"}");
    }

    #[test]
    fn finds_the_record_alone_where_key_spans_finds_it() {
        let texts = [
            (" {\"id\": \"a\"}", false),
            ("{\"record\":{\"id\":\"a\"},\"datasetVersion\":\"v\"}", true),
            ("\n { \"record\" :\r\n\t{ \"id\": \"a\"}}", true),
            ("{\"datasetVersion\": \"v\", \"record\": {\"id\": \"a\"}}", true),
            ("{\"record\": 5}", true),
        ];
        for (text, wrapped) in texts {
            assert_eq!(record_start(text, wrapped), key_spans(text).record, "{text:?}");
        }
    }
}
