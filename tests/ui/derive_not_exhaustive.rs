#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server", exhaustive)]
enum MqttFailure {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession,
}

fn main() {
    let _ = MqttFailure::parse("x");
}
