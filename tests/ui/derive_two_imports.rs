#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(id = "503f49fe39cf5793", slug = "unable-to-persist-session-q-seq-v-v")]
    PersistSession,
    #[catalog(id = "59aa3418e32dd765")]
    #[catalog(other)]
    InFlightWindowFull,
}

fn main() {
    let _ = MqttFailure::parse("x");
}
