//! One module per source language.

pub mod javascript;
mod parts;
pub mod python;
