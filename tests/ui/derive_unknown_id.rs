#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(id = "59aa3418e32dd766")]
    InFlightWindowFull,
}

fn main() {
    let _ = MqttFailure::parse("x");
}
