#[error_catalog::catalog(path = "/usr/share/records")]
enum AppError {}

fn main() {}
