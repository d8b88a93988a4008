// absolute path
#[error_catalog::catalog(path = "/usr/share/records")]
enum AppErrorAbsolutePath {}

// missing dir
#[error_catalog::catalog(path = "tests/ui/data/no-such-dir")]
enum AppErrorMissingDir {}

// missing path
#[error_catalog::catalog(repo = "example/app")]
enum AppErrorMissingPath {}

// empty dir
#[error_catalog::catalog(path = "tests/ui/data/empty")]
enum AppErrorEmptyDir {}

// symlink loop
// A symbolic link that leads back into the record directory is reported,
// naming the link, instead of walking forever (the fixture is made by
// tests/it/ui.rs).
#[error_catalog::catalog(path = "target/ui-fixtures/loop")]
enum AppErrorSymlinkLoop {}

fn main() {
}
