#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum MqttFailure {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession,
    #[catalog(other)]
    Unknown { message: String },
}

#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum Pair {
    #[catalog(other)]
    Unknown(String, String),
}

#[derive(Debug)]
struct Message;

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("message")
    }
}

#[derive(Debug, error_catalog::Catalog)]
#[catalog(path = "data/nats-io/nats-server")]
enum NotFromString {
    #[catalog(id = "503f49fe39cf5793")]
    PersistSession,
    #[catalog(other)]
    Unknown(Message),
}

fn main() {
    let _ = MqttFailure::parse("x");
    let _ = Pair::parse("x");
}
