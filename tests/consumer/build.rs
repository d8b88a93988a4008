// A record file added under data/ rebuilds the crate (edits of existing
// files are tracked by the macro's own code).
fn main() {
    println!("cargo:rerun-if-changed=data");
}
