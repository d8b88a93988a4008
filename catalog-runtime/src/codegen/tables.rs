//! Tables that generated code holds as byte-string literals: a literal
//! costs rustc next to nothing, where a `static` array of `N` rows costs it
//! type checking, borrow checking and const evaluation per element (1.6 s
//! of a 20,000-record build's profile went to three `[(&str, u32); N]`
//! lookup tables). The macro writes each table with its `*_table` function
//! and the generated code reads it with the other, so that each format is
//! defined once.

/// The shape (an arm of the generated `match`) of variant `index`, from a
/// table of one little-endian `u16` per variant; `None` past its end.
pub fn shape(table: &[u8], index: usize) -> Option<u16> {
    let at = index.checked_mul(2)?;
    Some(u16::from_le_bytes(table.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

/// The table read by [`shape`].
pub fn shape_table(shapes: impl IntoIterator<Item = u16>) -> Vec<u8> {
    shapes.into_iter().flat_map(u16::to_le_bytes).collect()
}

/// A table of `rows` (`(key, index)`) for [`lookup`], sorted by key (then
/// index): the number of rows, the end of each key in the key bytes, the
/// index of each row (little-endian `u32`s), then the keys' bytes.
pub fn lookup_table<'a>(rows: impl IntoIterator<Item = (&'a str, u32)>) -> Vec<u8> {
    let mut rows: Vec<(&str, u32)> = rows.into_iter().collect();
    rows.sort_unstable();
    let word = |n: usize| u32::try_from(n).expect("a lookup table under 4 GiB").to_le_bytes();
    let mut table = Vec::new();
    let mut end = 0;
    table.extend(word(rows.len()));
    for (key, _) in &rows {
        end += key.len();
        table.extend(word(end));
    }
    for (_, index) in &rows {
        table.extend(index.to_le_bytes());
    }
    for (key, _) in &rows {
        table.extend(key.as_bytes());
    }
    table
}

/// The index of the row of `table` (see [`lookup_table`]) whose key is
/// `key`, the first of them when several are; `None` when none is. Never
/// panics, whatever the bytes (a table that `lookup_table` did not write
/// gives `None` or some index).
pub fn lookup(table: &[u8], key: &str) -> Option<usize> {
    let word = |at: usize| -> Option<usize> {
        let bytes = table.get(at.checked_mul(4)?..at.checked_mul(4)?.checked_add(4)?)?;
        usize::try_from(u32::from_le_bytes(bytes.try_into().ok()?)).ok()
    };
    let rows = word(0)?;
    let keys = table.get(rows.checked_mul(8)?.checked_add(4)?..)?;
    let key_at = |row: usize| -> Option<&[u8]> {
        let start = if row == 0 { 0 } else { word(row)? };
        keys.get(start..word(row + 1)?)
    };
    // The first row whose key is not less than `key`.
    let (mut low, mut high) = (0, rows);
    while low < high {
        let middle = low + (high - low) / 2;
        if key_at(middle)? < key.as_bytes() {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    (low < rows && key_at(low)? == key.as_bytes()).then(|| word(1 + rows + low))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_read_back_from_their_table() {
        let table = shape_table([0, 7, 65_535, 3]);
        assert_eq!(
            (0..5).map(|i| shape(&table, i)).collect::<Vec<_>>(),
            [Some(0), Some(7), Some(65_535), Some(3), None]
        );
        assert_eq!(shape(&table, usize::MAX), None);
    }

    #[test]
    fn every_key_is_found_and_no_other() {
        let rows = [("b", 7), ("a", 3), ("ab", 0), ("b", 2), ("", 9), ("zzz", 65_536)];
        let table = lookup_table(rows);
        for (key, index) in [("a", 3), ("ab", 0), ("b", 2), ("", 9), ("zzz", 65_536)] {
            assert_eq!(lookup(&table, key), Some(index), "{key:?}");
        }
        for key in ["aa", "c", "zz", "zzzz", "\u{0}"] {
            assert_eq!(lookup(&table, key), None, "{key:?}");
        }
        assert_eq!(lookup(&lookup_table([]), "a"), None);
    }

    #[test]
    fn a_table_cut_short_finds_nothing_rather_than_panicking() {
        let table = lookup_table([("alpha", 1), ("beta", 2), ("gamma", 3)]);
        for len in 0..table.len() {
            let found = lookup(&table[..len], "gamma");
            assert!(found.is_none() || found == Some(3), "{len}");
        }
    }
}
