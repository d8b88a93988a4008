#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull { mqtt_max_acks_in_flight: bool, jsa_timeout: u64 },
}

#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum Other {
    #[catalog(id = "59aa3418e32dd765")]
    InFlightWindowFull { mqtt_max_acks_in_flight: std::primitive::f64 },
}

fn main() {
    let _ = MqttFailure::parse("x");
    let _ = Other::parse("x");
}
