//! The extractors, one module per source language.
