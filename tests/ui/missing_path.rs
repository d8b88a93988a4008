#[error_catalog::catalog(repo = "example/app")]
enum AppError {}

fn main() {}
