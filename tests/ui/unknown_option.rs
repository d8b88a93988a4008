#[error_catalog::catalog(path = "tests/ui/data/good", colour = "red", tags = [1])]
enum AppError {}

fn main() {
    let _ = AppError::COUNT;
}
