//! A variant with more fields than a field layout takes
//! (`layout::MAX_LAYOUT_FIELDS`) gets a `match` arm of its own, by name, and
//! goes through the per-field path, both ways.

#[error_catalog::catalog(path = "tests/data/wide")]
enum Wide {}

#[test]
fn a_variant_with_thirteen_fields_round_trips() {
    let message = "wide a 1 b 2 c 3 d 4 e 5 f 6 true end";
    let error = Wide::parse(message).expect("matches");
    assert_eq!(error.values().len(), 13);
    assert_eq!(error.to_string(), message);
    assert_eq!(error.clone(), error);
    assert!(matches!(error, Wide::Wide { ref a, m: true, .. } if a == "a"), "{error:?}");
    assert_eq!(Wide::parse("wide a x b 2 c 3 d 4 e 5 f 6 true end"), None);
}
