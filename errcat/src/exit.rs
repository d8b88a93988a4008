//! Exit statuses, as grep's.

/// Something was found (a match, a difference...), or nothing went wrong.
pub const FOUND: u8 = 0;
/// Nothing was found.
pub const NOT_FOUND: u8 = 1;
/// Something went wrong (an unreadable input, a bad dataset...).
pub const TROUBLE: u8 = 2;
