//! The JavaScript extractor against the Node.js dataset in `datasets/nodejs-node`.

mod common;

use std::path::Path;

use catalog_extract::lang::javascript::{skip_path, JavaScript, UV_HEADER};
use common::{assert_fixtures_give_dataset, assert_tree_gives_dataset, expected, sources, Expected};

fn extract(root: &Path) -> Vec<Expected> {
    let sources = sources(root, ("js", "lib/"), skip_path);
    let header = std::fs::read_to_string(root.join(UV_HEADER)).unwrap_or_else(|e| panic!("{UV_HEADER}: {e}"));
    let javascript = JavaScript::for_sources(
        sources.iter().map(|(f, t)| (f.as_str(), t.as_str())).chain([(UV_HEADER, header.as_str())]),
    );
    expected("nodejs/node", sources.iter().flat_map(|(f, t)| javascript.messages(f, t)).collect())
}

/// Whole files of Node's `lib/` (MIT, see `fixtures/javascript/LICENSE`)
/// give exactly the dataset's records of those files.
#[test]
fn node_files_give_their_dataset_records() {
    assert_fixtures_give_dataset("javascript", "nodejs-node", extract, "js");
}

/// Node v20.20.2's `lib/` as the `node` binary holds it (`NODE_SRC`, see
/// `datasets/nodejs-node/README.md`) gives the dataset.
#[test]
fn node_lib_gives_the_dataset() {
    assert_tree_gives_dataset("NODE_SRC", "a dump of Node v20.20.2's lib/", "nodejs-node", extract);
}
