//! The `.fnn` net file: reading (refusing anything malformed), writing, and the shapes a
//! file may declare.
//!
//! Little-endian: magic `FIANNUE\0`, then u32 version, u32 architecture (1: plain inputs, 2:
//! king-mirrored inputs), u32 hidden size H, u32 QA, u32 QB, u32 scale, and in version 2 only u32
//! output buckets B (version 1 means B = 1, architecture 1); then i16 feature weights (768 × H, one row of H per feature), i16 feature
//! biases (H), i16 output weights (B rows of 2H: side to move, then the other), i32 output biases
//! (B); then a u64 FNV-1a checksum of every byte before it. A one-bucket plain net is written
//! as version 1, so that builds from before buckets still read it.

use super::{Network, INPUTS, MAX_BUCKETS, MAX_HIDDEN, QA, QB, SCALE};
use thiserror::Error;

const MAGIC: &[u8; 8] = b"FIANNUE\0";
/// The newest file version this build reads and writes (1: no bucket field).
const VERSION: u32 = 2;
/// Architecture of plain inputs.
const ARCH: u32 = 1;
/// Architecture of king-mirrored inputs.
const ARCH_MIRRORED: u32 = 2;
pub(super) const HEADER_V1: usize = 8 + 6 * 4;

/// Why a net file was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetError {
    /// Not a Fianchetto net at all.
    #[error("not a Fianchetto net (bad magic)")]
    Magic,
    /// A version this build cannot read.
    #[error("net format version {0}, this build reads version {VERSION}")]
    Version(u32),
    /// A network shape this build does not evaluate.
    #[error("net architecture {0}, this build evaluates architectures {ARCH} and {ARCH_MIRRORED}")]
    Architecture(u32),
    /// The header's numbers are out of range.
    #[error("bad header: {0}")]
    Header(String),
    /// The file is shorter or longer than its header says.
    #[error("net file is {got} bytes, its header says {want}")]
    Size {
        /// Bytes the header implies.
        want: usize,
        /// Bytes present.
        got: usize,
    },
    /// The checksum does not match: a corrupt file.
    #[error("checksum mismatch: the file is corrupt")]
    Checksum,
    /// The file could not be read.
    #[error("{0}")]
    Io(String),
}

/// FNV-1a, 64-bit: enough to catch a corrupt or truncated download, not meant against malice.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

pub(super) fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Network {
    /// Parses a net file's bytes, refusing anything malformed.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_V1 || &bytes[..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let version = read_u32(bytes, 8);
        if version != 1 && version != VERSION {
            return Err(NetError::Version(version));
        }
        let arch = read_u32(bytes, 12);
        // Version 1 predates king mirroring: its files are all plain.
        if arch != ARCH && (arch != ARCH_MIRRORED || version == 1) {
            return Err(NetError::Architecture(arch));
        }
        let hidden = read_u32(bytes, 16) as usize;
        let (qa, qb, scale) = (
            read_u32(bytes, 20),
            read_u32(bytes, 24),
            read_u32(bytes, 28),
        );
        if (qa, qb, scale) != (QA as u32, QB as u32, SCALE as u32) {
            return Err(NetError::Header(format!(
                "quantisation {qa}/{qb}/{scale}, this build uses {QA}/{QB}/{SCALE}"
            )));
        }
        let (header, buckets) = if version == 1 {
            (HEADER_V1, 1)
        } else if bytes.len() >= HEADER_V1 + 4 {
            (HEADER_V1 + 4, read_u32(bytes, HEADER_V1) as usize)
        } else {
            return Err(NetError::Size {
                want: HEADER_V1 + 4,
                got: bytes.len(),
            });
        };
        check_shape(hidden, buckets)?;
        let weights = INPUTS * hidden + hidden + 2 * hidden * buckets;
        let want = header + 2 * weights + 4 * buckets + 8;
        if bytes.len() != want {
            return Err(NetError::Size {
                want,
                got: bytes.len(),
            });
        }
        let body = want - 8;
        let sum = u64::from_le_bytes(bytes[body..].try_into().map_err(|_| NetError::Checksum)?);
        if fnv1a(&bytes[..body]) != sum {
            return Err(NetError::Checksum);
        }
        let mut at = header;
        let mut take = |n: usize| {
            let v: Vec<i16> = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_weights = take(INPUTS * hidden);
        let ft_bias = take(hidden);
        let out_weights = take(2 * hidden * buckets);
        let out_bias = (0..buckets)
            .map(|k| read_u32(bytes, header + 2 * weights + 4 * k) as i32)
            .collect();
        Network::from_parts(hidden, buckets, ft_weights, ft_bias, out_weights, out_bias)
            .map(|n| n.with_king_mirror(arch == ARCH_MIRRORED))
    }

    /// The net file's bytes (version 1 for a plain one-bucket net, else version 2).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER_V1 + 4 + 2 * self.ft_weights.len() + 64);
        b.extend_from_slice(MAGIC);
        let version = if self.buckets == 1 && !self.mirrored {
            1
        } else {
            VERSION
        };
        for v in [
            version,
            if self.mirrored { ARCH_MIRRORED } else { ARCH },
            self.hidden as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        if version != 1 {
            b.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for w in &self.out_bias {
            b.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// The size of the largest net file this build reads (the largest hidden layer and bucket
    /// count): a larger file is refused before it is read.
    pub const fn max_file_bytes() -> u64 {
        let weights = INPUTS * MAX_HIDDEN + MAX_HIDDEN + 2 * MAX_HIDDEN * MAX_BUCKETS;
        (HEADER_V1 + 4 + 2 * weights + 4 * MAX_BUCKETS + 8) as u64
    }

    /// Reads a net file. Errors do not repeat the path: every caller names it.
    pub fn load(path: &str) -> Result<Network, NetError> {
        let bytes = crate::files::read_bounded(
            std::path::Path::new(path),
            Self::max_file_bytes(),
            "net file",
        )
        .map_err(|e| NetError::Io(e.to_string()))?;
        Network::from_bytes(&bytes)
    }
}

/// Why a hidden size or bucket count is one that no net may have (`None`: both are fine); the
/// net loader, the trainer and its checkpoints all check shapes here.
pub fn shape_problem(hidden: usize, buckets: usize) -> Option<String> {
    if hidden == 0 || hidden > MAX_HIDDEN {
        Some(format!(
            "hidden size {hidden} is out of range 1..={MAX_HIDDEN}"
        ))
    } else if buckets == 0 || buckets > MAX_BUCKETS {
        Some(format!(
            "{buckets} output buckets is out of range 1..={MAX_BUCKETS}"
        ))
    } else {
        None
    }
}

/// Refuses a hidden size or bucket count that no net file may declare.
pub(super) fn check_shape(hidden: usize, buckets: usize) -> Result<(), NetError> {
    shape_problem(hidden, buckets).map_or(Ok(()), |why| Err(NetError::Header(why)))
}
