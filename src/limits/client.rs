//! Who a keyless caller is: an IPv4 address, or an IPv6 /64 (one device or home network
//! holds a whole /64, so counting single IPv6 addresses would let it multiply itself). All of
//! 127.0.0.0/8 and `::1` are this machine, counted as one.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The network a client address is counted under.
pub fn client_net(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V4(v4) if v4.is_loopback() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => client_net(IpAddr::V4(v4)),
            None if v6.is_loopback() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net(s: &str) -> String {
        client_net(s.parse().expect("address")).to_string()
    }

    #[test]
    fn ipv6_addresses_are_counted_by_their_64_bit_network() {
        assert_eq!(net("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::");
        assert_eq!(net("2001:db8:1:2:bbbb::9"), "2001:db8:1:2::");
    }

    #[test]
    fn every_loopback_source_is_one_client() {
        assert_eq!(net("127.0.0.1"), "127.0.0.1");
        assert_eq!(net("127.9.8.7"), "127.0.0.1");
        assert_eq!(net("::1"), "127.0.0.1");
        assert_eq!(net("::ffff:127.0.0.5"), "127.0.0.1");
    }

    #[test]
    fn ipv4_addresses_are_counted_one_by_one() {
        assert_eq!(net("192.0.2.7"), "192.0.2.7");
        assert_eq!(net("::ffff:192.0.2.7"), "192.0.2.7");
    }
}
