// Every mistake of a hand-edited names file is reported at once, with its
// file, line and column; the records are still generated.
#[error_catalog::catalog(path = "tests/ui/data/pins_broken")]
enum AppError {}

fn main() {
    let _ = AppError::ConnectionTo { addr: "db".into(), n: 3 };
}
