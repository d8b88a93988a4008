// A record pinned by the names file is gone from the data: the compile error
// says which variant went with it and what to do, on the names file's line.
// The other records keep their pinned names.
#[error_catalog::catalog(path = "tests/ui/data/pins_missing")]
enum AppError {}

fn main() {
    let lost = AppError::LostConnection { addr: "db".into(), n: 3 };
    assert_eq!(lost.to_string(), "connection to db lost after 3 retries");
    let _ = AppError::DiskFull { volume: "/".into() };
}
