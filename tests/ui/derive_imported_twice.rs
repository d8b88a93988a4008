#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession { ps_id: String },
    #[catalog(slug = "unable-to-persist-session-q-seq-v-v")]
    PersistAgain,
}

fn main() {
    let _ = MqttFailure::parse("x");
}
