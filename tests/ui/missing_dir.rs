#[error_catalog::catalog(path = "tests/ui/data/no-such-dir")]
enum AppError {}

fn main() {}
