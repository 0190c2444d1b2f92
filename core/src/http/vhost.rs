//! Zope's virtual hosting, as the VirtualHostMonster does it, so a front end's proxy (Volto's,
//! nginx, traefik) can serve the site under its own address:
//! `/VirtualHostBase/<scheme>/<host:port>/<physical root>/VirtualHostRoot/[_vh_a/_vh_b/]<path>`
//! asks for `<physical root>/<path>`, and every URL the answer carries is built on
//! `<scheme>://<host:port>/a/b` in place of the physical root (`++api++` in the physical part
//! marks an API call, as in Volto's `/Plone/++api++/VirtualHostRoot/…`).
//!
//! Services build URLs from the physical path as always; the answer is rewritten on its way
//! out (physical root URL to virtual one) and a JSON body on its way in (virtual to physical),
//! so links a client sends in the virtual form are stored as the physical URLs they stand for.

use crate::api::VirtualHost;
use std::net::IpAddr;

/// The marker that starts a virtual-hosting path.
const BASE: &str = "VirtualHostBase";
/// The marker that ends the physical part.
const ROOT: &str = "VirtualHostRoot";

/// A virtual-hosting path taken apart.
#[derive(Debug, PartialEq, Eq)]
pub struct Rewritten {
    /// The virtual host.
    pub host: VirtualHost,
    /// The physical path asked for (`/Plone/a`), raw (percent-encoded as sent).
    pub path: String,
    /// Whether `++api++` stood in the physical part.
    pub api: bool,
}

/// The virtual host of `raw_path`, if it is a virtual-hosting path; `Err` for one that starts
/// like it but is malformed.
pub fn parse(raw_path: &str) -> Result<Option<Rewritten>, String> {
    let segments: Vec<&str> = raw_path.split('/').filter(|s| !s.is_empty()).collect();
    if segments.first() != Some(&BASE) {
        return Ok(None);
    }
    let (Some(scheme), Some(host)) = (segments.get(1), segments.get(2)) else {
        return Err("VirtualHostBase needs a scheme and a host".into());
    };
    if !matches!(*scheme, "http" | "https") {
        return Err(format!("VirtualHostBase: unknown scheme {scheme}"));
    }
    if host.is_empty()
        || host.len() > 255
        || !host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
    {
        return Err("VirtualHostBase: malformed host".into());
    }
    let default_port = if *scheme == "https" { ":443" } else { ":80" };
    let host = host.strip_suffix(default_port).unwrap_or(host);
    let rest = &segments[3..];
    let root_at = rest.iter().position(|s| *s == ROOT);
    let (physical, after) = match root_at {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        // Without VirtualHostRoot the whole path is physical: only the host changes.
        None => (rest, &[][..]),
    };
    let api = physical.contains(&"++api++");
    let physical: Vec<&str> = physical.iter().copied().filter(|s| *s != "++api++").collect();
    let (virtual_segments, path): (Vec<&str>, Vec<&str>) = match root_at {
        Some(_) => {
            let named = after.iter().take_while(|s| s.starts_with("_vh_")).count();
            (after[..named].iter().map(|s| &s[4..]).collect(), after[named..].to_vec())
        }
        None => (Vec::new(), Vec::new()),
    };
    let physical_root = join(&physical);
    let virtual_prefix = if root_at.is_some() { join(&virtual_segments) } else { physical_root.clone() };
    let mut full = physical_root.clone();
    for segment in path {
        full.push('/');
        full.push_str(segment);
    }
    let host = VirtualHost { base: format!("{scheme}://{host}"), physical_root, virtual_prefix };
    Ok(Some(Rewritten { host, path: if full.is_empty() { "/".into() } else { full }, api }))
}

fn join(segments: &[&str]) -> String {
    segments.iter().map(|s| format!("/{s}")).collect()
}

/// Proxies whose `X-Forwarded-*` headers and virtual-hosting paths are believed.
#[derive(Clone, Debug)]
pub struct TrustedProxies(Vec<(IpAddr, u8)>);

impl TrustedProxies {
    /// Reads addresses and networks (`127.0.0.1`, `10.0.0.0/8`, `::1`).
    pub fn parse(entries: &[String]) -> Result<TrustedProxies, String> {
        entries
            .iter()
            .filter(|e| !e.trim().is_empty())
            .map(|entry| {
                let (address, bits) = entry.trim().split_once('/').unwrap_or((entry.trim(), ""));
                let address: IpAddr =
                    address.parse().map_err(|_| format!("trusted proxy [{entry}]: not an address"))?;
                let most = if address.is_ipv4() { 32 } else { 128 };
                let bits: u8 = if bits.is_empty() {
                    most
                } else {
                    bits.parse()
                        .ok()
                        .filter(|b| *b <= most)
                        .ok_or_else(|| format!("trusted proxy [{entry}]: bad prefix"))?
                };
                Ok((address, bits))
            })
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }

    /// Loopback only: a proxy on the same machine (Volto's development server).
    pub fn loopback() -> TrustedProxies {
        TrustedProxies(vec![(IpAddr::from([127, 0, 0, 0]), 8), (IpAddr::from([0u16, 0, 0, 0, 0, 0, 0, 1]), 128)])
    }

    /// The address of the client behind `peer`: the peer itself, unless it is a trusted proxy;
    /// then the nearest address in `X-Forwarded-For` that is not one (read from the right, as
    /// each proxy appends the address it was called from, and only trusted ones are believed).
    pub fn client(&self, peer: Option<IpAddr>, headers: &poem::http::HeaderMap) -> Option<IpAddr> {
        if !self.trusts(peer) {
            return peer;
        }
        let forwarded: Vec<IpAddr> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map_while(|entry| entry.trim().parse::<IpAddr>().ok())
            .collect();
        let mut client = peer;
        for address in forwarded.into_iter().rev() {
            client = Some(address);
            if !self.trusts(client) {
                break;
            }
        }
        client
    }

    /// Whether `peer` is one of them.
    pub fn trusts(&self, peer: Option<IpAddr>) -> bool {
        let Some(peer) = peer.map(|p| p.to_canonical()) else { return false };
        self.0.iter().any(|(network, bits)| match (network, peer) {
            (IpAddr::V4(n), IpAddr::V4(p)) => prefix_matches(&n.octets(), &p.octets(), *bits),
            (IpAddr::V6(n), IpAddr::V6(p)) => prefix_matches(&n.octets(), &p.octets(), *bits),
            _ => false,
        })
    }
}

fn prefix_matches(network: &[u8], address: &[u8], bits: u8) -> bool {
    let bits = usize::from(bits);
    let (whole, rest) = (bits / 8, bits % 8);
    if network[..whole] != address[..whole] {
        return false;
    }
    rest == 0 || {
        let mask = 0xffu8 << (8 - rest);
        network[whole] & mask == address[whole] & mask
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn volto_paths_name_the_site_and_the_virtual_base() {
        let parsed =
            parse("/VirtualHostBase/http/localhost:3000/Plone/++api++/VirtualHostRoot/ueber-uns").unwrap().unwrap();
        assert_eq!(parsed.path, "/Plone/ueber-uns");
        assert!(parsed.api);
        assert_eq!(
            parsed
                .host
                .outbound(r#"{"@id": "http://localhost:3000/Plone/ueber-uns", "root": "http://localhost:3000/Plone"}"#),
            r#"{"@id": "http://localhost:3000/ueber-uns", "root": "http://localhost:3000"}"#
        );
        assert_eq!(parsed.host.outbound("http://localhost:3000/Plone2/x"), "http://localhost:3000/Plone2/x");
        assert_eq!(parsed.host.inbound(r#"["http://localhost:3000/a"]"#), r#"["http://localhost:3000/Plone/a"]"#);
    }

    #[test]
    fn vh_segments_and_default_ports() {
        let parsed =
            parse("/VirtualHostBase/https/example.org:443/Plone/VirtualHostRoot/_vh_cms/_vh_de/a").unwrap().unwrap();
        assert_eq!(parsed.host.base, "https://example.org");
        assert_eq!(parsed.host.virtual_prefix, "/cms/de");
        assert_eq!(parsed.path, "/Plone/a");
        assert!(!parsed.api);
        assert_eq!(parsed.host.outbound("https://example.org/Plone/a"), "https://example.org/cms/de/a");
        assert!(parse("/VirtualHostBase/ftp/x/Plone").is_err());
        assert!(parse("/Plone/a").unwrap().is_none());
    }

    #[test]
    fn proxies_are_trusted_by_address_and_network() {
        let trusted = TrustedProxies::parse(&["10.0.0.0/8".into(), "::1".into()]).unwrap();
        assert!(trusted.trusts(Some("10.1.2.3".parse().unwrap())));
        assert!(!trusted.trusts(Some("11.1.2.3".parse().unwrap())));
        assert!(trusted.trusts(Some("::1".parse().unwrap())));
        assert!(!trusted.trusts(None));
        assert!(TrustedProxies::loopback().trusts(Some("::ffff:127.0.0.1".parse().unwrap())));
        assert!(TrustedProxies::parse(&["nonsense".into()]).is_err());
    }

    #[test]
    fn the_client_is_the_nearest_untrusted_address() {
        let trusted = TrustedProxies::parse(&["10.0.0.0/8".into()]).unwrap();
        let mut headers = poem::http::HeaderMap::new();
        headers.insert("x-forwarded-for", "6.6.6.6, 192.0.2.7, 10.0.0.2".parse().unwrap());
        let proxy = Some("10.0.0.1".parse().unwrap());
        assert_eq!(
            trusted.client(proxy, &headers),
            Some("192.0.2.7".parse().unwrap()),
            "a forged entry is not believed"
        );
        let stranger = Some("198.51.100.1".parse().unwrap());
        assert_eq!(trusted.client(stranger, &headers), stranger, "an untrusted peer's header is ignored");
        assert_eq!(trusted.client(proxy, &poem::http::HeaderMap::new()), proxy);
    }
}
