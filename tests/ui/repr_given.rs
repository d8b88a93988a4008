// The generated code reaches fields through the layout of `#[repr(u32)]`
// alone, which another `repr` would change.
#[error_catalog::catalog(path = "tests/ui/data/good")]
#[repr(C)]
enum AppError {}

fn main() {}
