//! The HTTP side of `--metrics`: `GET /metrics` (Prometheus text, or
//! OpenMetrics when the scraper's `Accept` prefers it) and `GET /-/healthy`,
//! on a thread of its own. Requests are parsed by `tiny_http`; each scrape
//! encodes the counters as they are at that moment.

use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::sync::Arc;
use std::thread::JoinHandle;

use prometheus_client::encoding::{prometheus_text, text};
use prometheus_client::registry::Registry;
use tiny_http::{Header, Method, Request, Response};

use super::Metrics;
use crate::input::io_message;

const OPENMETRICS: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

pub struct Server {
    http: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
    /// Where it listens (the port chosen when `ADDR` asked for port 0).
    pub address: SocketAddr,
}

/// Listens on `address` (`HOST:PORT`) and serves `metrics` until stopped.
/// A bad address or a port in use is an error naming the address.
pub fn start(address: &str, metrics: Arc<Metrics>) -> Result<Server, String> {
    let not_an_address = |why: &str| {
        format!("--metrics {address}: not an address to listen on ({why}); give HOST:PORT, e.g. 127.0.0.1:9187")
    };
    let addresses: Vec<SocketAddr> = match address.to_socket_addrs() {
        Ok(addresses) => addresses.collect(),
        Err(err) => return Err(not_an_address(&io_message(&err))),
    };
    if addresses.is_empty() {
        return Err(not_an_address("the host has no address"));
    }
    let listener = TcpListener::bind(&addresses[..])
        .map_err(|err| format!("--metrics {address}: cannot listen: {}", io_message(&err)))?;
    let bound = listener.local_addr().map_err(|err| format!("--metrics {address}: {}", io_message(&err)))?;
    let http = tiny_http::Server::from_listener(listener, None)
        .map_err(|err| format!("--metrics {address}: cannot serve: {err}"))?;
    let http = Arc::new(http);
    let mut registry = Registry::default();
    registry.register_collector(Box::new(metrics));
    let serving = Arc::clone(&http);
    let thread = std::thread::Builder::new()
        .name("metrics".to_owned())
        .spawn(move || {
            for request in serving.incoming_requests() {
                // A scraper that hangs up early is its own problem.
                let _ = answer(request, &registry);
            }
        })
        .map_err(|err| format!("--metrics {address}: {}", io_message(&err)))?;
    Ok(Server { http, thread: Some(thread), address: bound })
}

impl Server {
    pub fn stop(mut self) {
        self.http.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn answer(request: Request, registry: &Registry) -> std::io::Result<()> {
    let path = request.url().split('?').next().unwrap_or_default();
    let get = matches!(request.method(), Method::Get | Method::Head);
    let (status, content_type, body) = match (get, path) {
        (true, "/metrics") => {
            let accept = request.headers().iter().find(|h| h.field.equiv("Accept")).map(|h| h.value.as_str());
            let mut body = String::new();
            let content_type = if prefers_openmetrics(accept.unwrap_or("")) {
                text::encode(&mut body, registry).map(|()| OPENMETRICS)
            } else {
                prometheus_text::encode(&mut body, registry).map(|()| prometheus_text::CONTENT_TYPE)
            };
            match content_type {
                Ok(content_type) => (200, content_type, body),
                Err(_) => (500, "text/plain; charset=utf-8", "errcat: the metrics could not be encoded\n".to_owned()),
            }
        }
        (true, "/-/healthy") => (200, "text/plain; charset=utf-8", "errcat is healthy.\n".to_owned()),
        (true, _) => {
            (404, "text/plain; charset=utf-8", "not found: errcat serves /metrics and /-/healthy\n".to_owned())
        }
        (false, _) => (405, "text/plain; charset=utf-8", "only GET\n".to_owned()),
    };
    let header = Header::from_bytes("Content-Type", content_type).expect("a valid header");
    request.respond(Response::from_string(body).with_status_code(status).with_header(header))
}

/// Whether an `Accept` header ranks OpenMetrics above the Prometheus text
/// format (Prometheus itself sends OpenMetrics first with q=1, text/plain
/// with q=0.5). Without either, the text format.
fn prefers_openmetrics(accept: &str) -> bool {
    let mut best = (0.0f32, 0.0f32);
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or_default().to_ascii_lowercase();
        let quality = parts
            .filter_map(|parameter| parameter.strip_prefix("q="))
            .find_map(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        match media.as_str() {
            "application/openmetrics-text" => best.0 = best.0.max(quality),
            "text/plain" => best.1 = best.1.max(quality),
            _ => {}
        }
    }
    best.0 > 0.0 && best.0 >= best.1
}

#[cfg(test)]
mod tests {
    use super::prefers_openmetrics;

    #[test]
    fn openmetrics_only_when_the_scraper_ranks_it_first() {
        let prometheus = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
        assert!(prefers_openmetrics(prometheus));
        assert!(!prefers_openmetrics(""));
        assert!(!prefers_openmetrics("*/*"));
        assert!(!prefers_openmetrics("text/plain;version=0.0.4"));
        assert!(!prefers_openmetrics("application/openmetrics-text;q=0.2, text/plain"));
        assert!(!prefers_openmetrics("application/openmetrics-text;q=0"));
    }
}
