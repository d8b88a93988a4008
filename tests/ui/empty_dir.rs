#[error_catalog::catalog(path = "tests/ui/data/empty")]
enum AppError {}

fn main() {}
