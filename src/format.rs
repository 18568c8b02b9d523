//! Numbers as people read them, in one place: `445,100`, `1.2 Mnps`, `+0.34`. UCI's own syntax
//! lives in `uci/`.

/// Groups digits in threes: 445100 → "445,100".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Nodes per second (0 for no time at all).
pub fn nps(nodes: u64, secs: f64) -> f64 {
    if secs > 0.0 {
        nodes as f64 / secs
    } else {
        0.0
    }
}

/// Centipawns as signed pawns with two decimals: 34 → "+0.34", -150 → "-1.50".
pub fn pawns(cp: i32) -> String {
    format!("{:+.2}", f64::from(cp) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(445_100), "445,100");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(pawns(34), "+0.34");
        assert_eq!(pawns(-150), "-1.50");
        assert_eq!(pawns(0), "+0.00");
        assert_eq!(nps(1000, 0.5), 2000.0);
        assert_eq!(nps(1000, 0.0), 0.0);
    }
}
