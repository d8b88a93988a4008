//! One module per source language.

pub mod javascript;
mod message;
pub mod python;

pub use message::Message;
