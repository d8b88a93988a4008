//! Applying a names file's pins (`crate::dataset::Names`) to compiled
//! records: pinned records keep their variant and field names, and pins of
//! records no longer in the data are reported, with what to do.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::dataset::{Names, Pin};
use crate::diagnostic::Diagnostic;
use crate::format::Template;

/// Gives `template`'s fields their pinned names, when the pin still fits the
/// record's fields; otherwise the fields keep the names the rule gave them
/// (the record's fields changed, which `errcat diff` reports as breaking).
///
/// - The rule's names, when they are the pinned names in another order:
///   fields are named, so their order is not API, and the rule follows the
///   message's placeholders (a reworded message may reorder them).
/// - Otherwise the pinned names in placeholder order, when the record has as
///   many fields as pinned. A field whose type changed (`%v` became `%d`)
///   keeps its name: the change is the type alone, as `errcat diff` says.
/// - Otherwise (placeholders added or removed) the rule's names.
pub fn pin_fields(template: &mut Template, pin: &Pin) {
    let current: HashSet<&str> = template.fields.iter().map(|field| field.name.as_ref()).collect();
    let pinned: HashSet<&str> = pin.fields.iter().map(|field| field.name.as_str()).collect();
    if current == pinned || template.fields.len() != pin.fields.len() {
        return;
    }
    let mut fields = template.fields.to_vec();
    for (field, pinned) in fields.iter_mut().zip(&pin.fields) {
        field.name = Cow::Owned(pinned.name.clone());
    }
    template.fields = Cow::Owned(fields);
}

/// An error for every pin whose record is not present (`is_present` is asked
/// about every record read, compiled or not): its variant is gone from the enum, and the user
/// has to know which, and what to do, rather than meet rustc's "no variant".
pub fn stale_pins(names: &Names, is_present: impl Fn(&str) -> bool) -> Vec<(&Pin, Diagnostic)> {
    let Some(path) = &names.path else {
        return Vec::new();
    };
    let dir = path.parent().map_or_else(|| ".".into(), |dir| dir.display().to_string());
    names
        .pins
        .iter()
        .filter(|pin| !is_present(&pin.id))
        .map(|pin| {
            let message = format!(
                "record `{}` (variant `{}`) is pinned here but is no longer in the dataset, so the variant is gone: \
                 remove the uses of `{}`, then run `errcat names {dir}` to drop this line",
                pin.id, pin.variant, pin.variant
            );
            (pin, Diagnostic::error(path, (pin.line, 1), message))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::PinnedField;
    use crate::format::{compile, Dialect};

    fn pin(fields: &[(&str, &str)]) -> Pin {
        Pin {
            id: "a1".into(),
            variant: "Gateway".into(),
            fields: fields
                .iter()
                .map(|(name, ty)| PinnedField { name: (*name).into(), rust_type: (*ty).into() })
                .collect(),
            line: 3,
        }
    }

    fn names_after(message: &str, pinned: &[(&str, &str)]) -> Vec<String> {
        let mut template = compile(message, Dialect::Go).unwrap();
        pin_fields(&mut template, &pin(pinned));
        template.fields.iter().map(|f| f.name.to_string()).collect()
    }

    #[test]
    fn pinned_field_names_apply_while_they_fit() {
        // As many fields: the pinned names, in placeholder order.
        assert_eq!(names_after("gateway %q port %d", &[("name", "String"), ("port", "i64")]), ["name", "port"]);
        // Another type: the field keeps its name (the type changes alone).
        assert_eq!(names_after("gateway %q port %t", &[("name", "String"), ("port", "i64")]), ["name", "port"]);
        // A field more: the rule's names (`argN` here).
        assert_eq!(
            names_after("gateway %q port %d %v", &[("name", "String"), ("port", "i64")]),
            ["arg0", "arg1", "arg2"]
        );
    }

    #[test]
    fn the_rules_names_win_when_they_are_the_pinned_ones_reordered() {
        let mut template = compile("%d then %q", Dialect::Go).unwrap();
        let mut fields = template.fields.to_vec();
        fields[0].name = "port".into();
        fields[1].name = "name".into();
        template.fields = Cow::Owned(fields);
        pin_fields(&mut template, &pin(&[("name", "String"), ("port", "i64")]));
        let names: Vec<&str> = template.fields.iter().map(|f| f.name.as_ref()).collect();
        assert_eq!(names, ["port", "name"]);
    }

    #[test]
    fn a_pin_without_its_record_is_an_error_on_its_line() {
        let names = Names { path: Some("data/error-catalog.names".into()), pins: vec![pin(&[])] };
        assert!(stale_pins(&names, |id| id == "a1").is_empty());
        let stale = stale_pins(&names, |_| false);
        assert_eq!(
            stale[0].1.to_string(),
            "data/error-catalog.names:3:1: record `a1` (variant `Gateway`) is pinned here but is no \
             longer in the dataset, so the variant is gone: remove the uses of `Gateway`, then run \
             `errcat names data` to drop this line"
        );
        assert!(stale_pins(&Names::default(), |_| false).is_empty());
    }
}
