#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fuzz_harness::record_loader(data));
