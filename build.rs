// Rebuild when a record file is added to data/ (edits are tracked by the
// macro's `include_bytes!`, new files only by this line).
fn main() {
    println!("cargo:rerun-if-changed=data");
}
