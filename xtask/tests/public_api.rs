//! The public API of the libraries is what `public-api/*.txt` says: a change
//! to it fails here until the listing is rewritten (`cargo run -p xtask --
//! public-api`) and the diff reviewed.

#[path = "../src/public_api.rs"]
mod public_api;

#[test]
fn the_public_api_is_as_listed() {
    let mut changed = Vec::new();
    for (package, krate) in public_api::CRATES {
        let now = public_api::listing(package, krate).expect("rustdoc lists the API");
        let path = public_api::listing_path(krate);
        let listed = std::fs::read_to_string(&path).unwrap_or_default();
        if now != listed {
            let added: Vec<&str> = now.lines().filter(|line| !listed.lines().any(|l| l == *line)).collect();
            let removed: Vec<&str> = listed.lines().filter(|line| !now.lines().any(|l| l == *line)).collect();
            changed.push(format!("{}:\n  added: {added:#?}\n  removed: {removed:#?}", path.display()));
        }
    }
    assert!(
        changed.is_empty(),
        "the public API changed; if that is meant, run `cargo run -p xtask -- public-api` and commit the listing\n{}",
        changed.join("\n")
    );
}
