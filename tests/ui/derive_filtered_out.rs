#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server", tags = ["persistence"])]
enum MqttFailure {
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull,
}

#[derive(Debug, error_catalog::Catalog)]
enum NoPath {
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull,
}

#[derive(error_catalog::Catalog)]
struct NotAnEnum;

fn main() {
    let _ = MqttFailure::parse("x");
}
