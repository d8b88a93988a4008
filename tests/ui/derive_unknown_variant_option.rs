#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server", exhaustiv)]
enum MqttFailure {
    #[catalog(id = "503f49fe39cf5793", severity = "error")]
    PersistSession,
    #[catalog(name = "InFlightWindowFull")]
    InFlightWindowFull,
}

fn main() {
    let _ = MqttFailure::parse("x");
}
