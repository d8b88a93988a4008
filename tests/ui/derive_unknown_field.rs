#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
    PersistSession { ps_id: String, session: String },
}

fn main() {
    let _ = MqttFailure::parse("x");
}
