// Mistakes in a variant's import, one enum each: every one is reported,
// on the attribute, variant or field at fault.

// imported twice
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailureImportedTwice {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession { ps_id: String },
    #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
    PersistAgain,
}

// no import
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailureNoImport {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession,
    InFlightWindowFull,
}

// not exhaustive
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server", exhaustive)]
enum MqttFailureNotExhaustive {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession,
}

// tuple import
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailureTupleImport {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession(String, u64, String),
}

// two imports
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailureTwoImports {
    #[catalog(id = "503f49fe39cf5793", slug = "unable-to-persist-session-q-seq-v-v")]
    PersistSession,
    #[catalog(id = "59aa3418e32dd765")]
    #[catalog(other)]
    InFlightWindowFull,
}

// two others
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailureTwoOthers {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession,
    #[catalog(other)]
    Unknown(String),
    #[catalog(other)]
    Unmatched(String),
}

// unknown field
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailureUnknownField {
    #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
    PersistSession { ps_id: String, session: String },
}

// unknown id
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailureUnknownId {
    #[catalog(id = "59aa3418e32dd766")]
    InFlightWindowFull,
}

// unknown slug
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailureUnknownSlug {
    #[catalog(slug = "no-such-error")]
    Missing,
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull,
}

// unknown variant option
#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server", exhaustiv)]
enum MqttFailureUnknownVariantOption {
    #[catalog(id = "503f49fe39cf5793", severity = "error")]
    PersistSession,
    #[catalog(name = "InFlightWindowFull")]
    InFlightWindowFull,
}

fn main() {
    let _ = MqttFailureImportedTwice::parse("x");
    let _ = MqttFailureNoImport::parse("x");
    let _ = MqttFailureNotExhaustive::parse("x");
    let _ = MqttFailureTupleImport::parse("x");
    let _ = MqttFailureTwoImports::parse("x");
    let _ = MqttFailureTwoOthers::parse("x");
    let _ = MqttFailureUnknownField::parse("x");
    let _ = MqttFailureUnknownId::parse("x");
    let _ = MqttFailureUnknownSlug::parse("x");
    let _ = MqttFailureUnknownVariantOption::parse("x");
}
