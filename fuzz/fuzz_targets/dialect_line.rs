#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_harness::dialect_line(data));
