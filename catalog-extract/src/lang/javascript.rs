//! JavaScript.
