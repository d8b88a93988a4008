// Every bad record of the directory is reported in one compile, each with its
// file, line, column and field; the valid record is still generated.
#[error_catalog::catalog(path = "tests/ui/data/bad")]
enum AppError {}

fn main() {
    let error = AppError::ConnectionTo { addr: "db".into(), n: 3 };
    assert_eq!(error.to_string(), "connection to db lost after 3 retries");
}
