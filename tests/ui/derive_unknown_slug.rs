#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(slug = "no-such-error")]
    Missing,
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull,
}

fn main() {
    let _ = MqttFailure::parse("x");
}
