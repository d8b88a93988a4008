#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession(String, u64, String),
}

fn main() {
    let _ = MqttFailure::parse("x");
}
