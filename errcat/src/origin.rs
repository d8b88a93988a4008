//! Where a followed line came from, read from its file's path for the
//! layouts container runtimes write: kubelet's
//! `/var/log/pods/<namespace>_<pod>_<uid>/<container>/<N>.log` (and its
//! rotations, `<N>.log.<timestamp>`) and Docker's
//! `/var/lib/docker/containers/<id>/<id>-json.log` (and `-json.log.<N>`).
//!
//! The parts are taken from the path as they are: a hostile directory name
//! is only ever a label value or a JSON string, which their encoders escape.

use std::path::{Component, Path};

/// The workload a log file is of, as far as its path says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    pub namespace: Option<String>,
    pub pod: Option<String>,
    pub container: Option<String>,
}

/// A part of an [`Origin`], as `--metrics-labels` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    Namespace,
    Pod,
    Container,
}

impl Part {
    pub const ALL: [Part; 3] = [Part::Namespace, Part::Pod, Part::Container];

    pub fn name(self) -> &'static str {
        match self {
            Part::Namespace => "namespace",
            Part::Pod => "pod",
            Part::Container => "container",
        }
    }

    pub fn from_name(name: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|part| part.name() == name)
    }
}

impl Origin {
    /// The origin of the file at `path`: empty when its layout is not known.
    pub fn of(path: &Path) -> Origin {
        let parts: Vec<&str> = path
            .components()
            .filter_map(|component| match component {
                Component::Normal(part) => part.to_str(),
                _ => None,
            })
            .collect();
        kubelet(&parts).or_else(|| docker(&parts)).unwrap_or_default()
    }

    pub fn get(&self, part: Part) -> Option<&str> {
        match part {
            Part::Namespace => self.namespace.as_deref(),
            Part::Pod => self.pod.as_deref(),
            Part::Container => self.container.as_deref(),
        }
    }
}

/// `pods/<namespace>_<pod>_<uid>/<container>/<file>`: namespaces and pod
/// names are DNS names (no `_`), so the first two `_` split the directory.
fn kubelet(parts: &[&str]) -> Option<Origin> {
    let at = parts.len().checked_sub(4)?;
    let [pods, pod_dir, container, _file] = parts[at..] else { return None };
    if pods != "pods" {
        return None;
    }
    let mut fields = pod_dir.splitn(3, '_');
    let (namespace, pod, uid) = (fields.next()?, fields.next()?, fields.next()?);
    if namespace.is_empty() || pod.is_empty() || uid.is_empty() || container.is_empty() {
        return None;
    }
    Some(Origin {
        namespace: Some(namespace.to_owned()),
        pod: Some(pod.to_owned()),
        container: Some(container.to_owned()),
    })
}

/// `containers/<id>/<id>-json.log[.N]`: the container's id.
fn docker(parts: &[&str]) -> Option<Origin> {
    let at = parts.len().checked_sub(3)?;
    let [containers, id, file] = parts[at..] else { return None };
    let rest = file.strip_prefix(id)?;
    let is_log = rest == "-json.log" || rest.strip_prefix("-json.log.").is_some_and(|n| n.parse::<u32>().is_ok());
    (containers == "containers" && is_log && !id.is_empty())
        .then(|| Origin { container: Some(id.to_owned()), ..Origin::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(namespace: Option<&str>, pod: Option<&str>, container: Option<&str>) -> Origin {
        let owned = |part: Option<&str>| part.map(str::to_owned);
        Origin { namespace: owned(namespace), pod: owned(pod), container: owned(container) }
    }

    #[test]
    fn kubelet_and_docker_paths_say_their_workload() {
        let pod = "/var/log/pods/kube-system_coredns-5d78c9869d-x7k2p_0b1c2d3e-aaaa-bbbb-cccc-123456789abc/coredns";
        let expected = origin(Some("kube-system"), Some("coredns-5d78c9869d-x7k2p"), Some("coredns"));
        assert_eq!(Origin::of(Path::new(&format!("{pod}/0.log"))), expected);
        assert_eq!(Origin::of(Path::new(&format!("{pod}/0.log.20261203-152400"))), expected);
        let id = "3f4e5d6c7b8a";
        let docker = format!("/var/lib/docker/containers/{id}/{id}-json.log");
        assert_eq!(Origin::of(Path::new(&docker)), origin(None, None, Some(id)));
        assert_eq!(Origin::of(Path::new(&format!("{docker}.1"))), origin(None, None, Some(id)));
    }

    #[test]
    fn other_paths_have_no_origin() {
        for path in [
            "/var/log/syslog",
            "/var/log/pods/no-underscores/c/0.log",
            "/var/log/pods/ns_pod_uid/0.log",
            "/var/lib/docker/containers/abc/def-json.log",
            "/var/lib/docker/containers/abc/abc-json.log.gz",
            "0.log",
        ] {
            assert_eq!(Origin::of(Path::new(path)), Origin::default(), "{path}");
        }
    }
}
