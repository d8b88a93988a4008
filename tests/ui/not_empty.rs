#[error_catalog::catalog(path = "tests/ui/data/good")]
enum AppError {
    Mine,
}

#[error_catalog::catalog(path = "tests/ui/data/good")]
struct NotAnEnum;

fn main() {}
