//! A response body read as it arrives: decoded as Playwright decodes it (gzip, deflate, br)
//! and refused as soon as its decoded bytes pass a cap, so that a body too long to read costs
//! the cap and the decoder's window in memory, however it is framed or compressed (a small
//! gzip body that inflates to gigabytes included). Brotli's window is the largest, 16 MiB at
//! most.
//!
//! Main type: [`CappedBody`].

use std::io::{self, Write};

/// How a response's body is encoded, from its `content-encoding` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Identity,
    Gzip,
    Deflate,
    Brotli,
}

impl Encoding {
    /// Reads a `content-encoding` header. Playwright decodes these three encodings and hands
    /// any other one over as it came, so an unknown one reads as [`Encoding::Identity`].
    pub(crate) fn of(header: Option<&str>) -> Encoding {
        match header.map(str::to_ascii_lowercase).as_deref() {
            Some("gzip" | "x-gzip") => Encoding::Gzip,
            Some("deflate") => Encoding::Deflate,
            Some("br") => Encoding::Brotli,
            _ => Encoding::Identity,
        }
    }

    /// The encoding as the header writes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Encoding::Identity => "identity",
            Encoding::Gzip => "gzip",
            Encoding::Deflate => "deflate",
            Encoding::Brotli => "br",
        }
    }
}

/// Why a body could not be read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BodyError {
    /// Its decoded bytes passed the cap; the rest was never read.
    #[error("the body is longer than {cap} bytes")]
    TooLong { cap: usize },
    /// Its bytes are not valid in the encoding its header names.
    #[error("failed to decompress '{}' encoding", encoding.name())]
    Decode {
        encoding: Encoding,
        #[source]
        source: io::Error,
    },
}

/// The decoded bytes so far, which refuses a write that would take them past `cap`.
struct Sink {
    bytes: Vec<u8>,
    cap: usize,
    /// Set by the write it refused, so that the decoder's error around it is known for what it
    /// is.
    over: bool,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if buf.len() > self.cap - self.bytes.len() {
            self.over = true;
            return Err(io::Error::other("the decoded body passed its cap"));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The size of the brotli decoder's output buffer (the decoder keeps its own window besides).
const BROTLI_BUFFER: usize = 32 * 1024;

enum Decoder {
    Identity(Sink),
    Gzip(flate2::write::MultiGzDecoder<Sink>),
    Deflate(flate2::write::ZlibDecoder<Sink>),
    Brotli(Box<brotli_decompressor::DecompressorWriter<Sink>>),
}

impl Decoder {
    fn sink(&self) -> &Sink {
        match self {
            Decoder::Identity(sink) => sink,
            Decoder::Gzip(decoder) => decoder.get_ref(),
            Decoder::Deflate(decoder) => decoder.get_ref(),
            Decoder::Brotli(decoder) => decoder.get_ref(),
        }
    }

    fn sink_mut(&mut self) -> &mut Sink {
        match self {
            Decoder::Identity(sink) => sink,
            Decoder::Gzip(decoder) => decoder.get_mut(),
            Decoder::Deflate(decoder) => decoder.get_mut(),
            Decoder::Brotli(decoder) => decoder.get_mut(),
        }
    }

    fn write_all(&mut self, chunk: &[u8]) -> io::Result<()> {
        match self {
            Decoder::Identity(sink) => sink.write_all(chunk),
            Decoder::Gzip(decoder) => decoder.write_all(chunk),
            Decoder::Deflate(decoder) => decoder.write_all(chunk),
            Decoder::Brotli(decoder) => decoder.write_all(chunk),
        }
    }

    /// Decodes what the decoder still holds at the end of the body.
    fn finish(&mut self) -> io::Result<()> {
        match self {
            Decoder::Identity(_) => Ok(()),
            Decoder::Gzip(decoder) => decoder.try_finish(),
            Decoder::Deflate(decoder) => decoder.try_finish(),
            Decoder::Brotli(decoder) => decoder.close(),
        }
    }
}

/// One response body being read: chunks go in as they arrive, decoded bytes come out at the
/// end, and a body whose decoded bytes pass the cap fails the chunk that took it past.
pub(crate) struct CappedBody {
    encoding: Encoding,
    decoder: Decoder,
    /// Whether any bytes arrived: an empty body is empty whatever its encoding says, as in
    /// Playwright.
    received: bool,
}

impl CappedBody {
    /// A body in `encoding` of which at most `cap` decoded bytes are kept.
    pub(crate) fn new(encoding: Encoding, cap: usize) -> CappedBody {
        let sink = Sink {
            bytes: Vec::new(),
            cap,
            over: false,
        };
        let decoder = match encoding {
            Encoding::Identity => Decoder::Identity(sink),
            Encoding::Gzip => Decoder::Gzip(flate2::write::MultiGzDecoder::new(sink)),
            Encoding::Deflate => Decoder::Deflate(flate2::write::ZlibDecoder::new(sink)),
            Encoding::Brotli => Decoder::Brotli(Box::new(
                brotli_decompressor::DecompressorWriter::new(sink, BROTLI_BUFFER),
            )),
        };
        CappedBody {
            encoding,
            decoder,
            received: false,
        }
    }

    /// Decodes the next chunk of the body as it came off the connection.
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Result<(), BodyError> {
        if chunk.is_empty() {
            return Ok(());
        }
        self.received = true;
        let written = self.decoder.write_all(chunk);
        written.map_err(|source| self.error(source))
    }

    /// The decoded body, once every chunk has been pushed.
    pub(crate) fn finish(mut self) -> Result<Vec<u8>, BodyError> {
        if !self.received {
            return Ok(Vec::new());
        }
        if let Err(source) = self.decoder.finish() {
            return Err(self.error(source));
        }
        Ok(std::mem::take(&mut self.decoder.sink_mut().bytes))
    }

    fn error(&self, source: io::Error) -> BodyError {
        let sink = self.decoder.sink();
        if sink.over {
            BodyError::TooLong { cap: sink.cap }
        } else {
            BodyError::Decode {
                encoding: self.encoding,
                source,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAP: usize = 64 * 1024;

    /// Reads `chunks` into a body of `encoding` capped at [`CAP`].
    fn read(encoding: Encoding, chunks: &[&[u8]]) -> Result<Vec<u8>, BodyError> {
        let mut body = CappedBody::new(encoding, CAP);
        for chunk in chunks {
            body.push(chunk)?;
        }
        body.finish()
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut encoder =
            flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// Brotli's smallest stream form: uncompressed meta-blocks of at most 65536 bytes each,
    /// then an empty last one (RFC 7932, section 9.2), so the tests need no encoder.
    fn brotli_stored(data: &[u8]) -> Vec<u8> {
        struct Bits {
            out: Vec<u8>,
            bit: u32,
        }
        impl Bits {
            fn put(&mut self, value: u32, count: u32) {
                for i in 0..count {
                    if self.bit == 0 {
                        self.out.push(0);
                    }
                    if (value >> i) & 1 == 1 {
                        *self.out.last_mut().unwrap() |= 1 << self.bit;
                    }
                    self.bit = (self.bit + 1) % 8;
                }
            }
        }
        // WBITS 16: a single 0 bit.
        let mut bits = Bits {
            out: Vec::new(),
            bit: 0,
        };
        bits.put(0, 1);
        for block in data.chunks(65536) {
            // ISLAST 0, MNIBBLES 4 (code 0), MLEN - 1 in 16 bits, ISUNCOMPRESSED 1.
            bits.put(0, 1);
            bits.put(0, 2);
            bits.put(u32::try_from(block.len() - 1).unwrap(), 16);
            bits.put(1, 1);
            bits.bit = 0;
            bits.out.extend_from_slice(block);
        }
        // ISLAST 1, ISLASTEMPTY 1.
        bits.put(0b11, 2);
        bits.out
    }

    #[test]
    fn a_plain_body_is_read_whole_up_to_the_cap_and_refused_past_it() {
        let full = vec![b'x'; CAP];
        assert_eq!(
            read(Encoding::Identity, &[&full[..10], &full[10..]]).unwrap(),
            full
        );
        let err = read(Encoding::Identity, &[&full, b"y"]).unwrap_err();
        assert!(matches!(err, BodyError::TooLong { cap: CAP }), "{err:?}");
        assert_eq!(read(Encoding::Identity, &[]).unwrap(), b"");
    }

    #[test]
    fn each_encoding_playwright_decodes_is_decoded() {
        let text = b"the quick brown fox ".repeat(100);
        assert_eq!(read(Encoding::Gzip, &[&gzip(&text)]).unwrap(), text);
        assert_eq!(read(Encoding::Deflate, &[&zlib(&text)]).unwrap(), text);
        assert_eq!(
            read(Encoding::Brotli, &[&brotli_stored(&text)]).unwrap(),
            text
        );
        // Chunk boundaries fall anywhere in the compressed bytes.
        let zipped = gzip(&text);
        let chunks: Vec<&[u8]> = zipped.chunks(7).collect();
        assert_eq!(read(Encoding::Gzip, &chunks).unwrap(), text);
        // Two gzip members one after the other are one body, as gunzip reads them.
        let mut two = gzip(b"ab");
        two.extend(gzip(b"cd"));
        assert_eq!(read(Encoding::Gzip, &[&two]).unwrap(), b"abcd");
    }

    #[test]
    fn a_small_compressed_body_that_inflates_past_the_cap_is_refused() {
        let bomb = vec![0u8; 100 * CAP];
        for (encoding, bytes) in [
            (Encoding::Gzip, gzip(&bomb)),
            (Encoding::Deflate, zlib(&bomb)),
            (Encoding::Brotli, brotli_stored(&bomb)),
        ] {
            if encoding != Encoding::Brotli {
                assert!(bytes.len() < CAP / 4, "{encoding:?} compresses the zeros");
            }
            let err = read(encoding, &[&bytes]).unwrap_err();
            assert!(
                matches!(err, BodyError::TooLong { cap: CAP }),
                "{encoding:?}: {err:?}"
            );
        }
    }

    #[test]
    fn bytes_that_are_not_in_the_named_encoding_fail_to_decode() {
        for encoding in [Encoding::Gzip, Encoding::Deflate, Encoding::Brotli] {
            let err = read(encoding, &[b"plain text, not compressed at all"]).unwrap_err();
            assert!(
                matches!(err, BodyError::Decode { encoding: e, .. } if e == encoding),
                "{encoding:?}: {err:?}"
            );
            assert!(
                err.to_string()
                    .starts_with(&format!("failed to decompress '{}'", encoding.name())),
                "{err}"
            );
        }
        // An empty body is empty whatever its header says.
        assert_eq!(read(Encoding::Gzip, &[]).unwrap(), b"");
    }

    #[test]
    fn the_header_names_the_encoding_as_playwright_reads_it() {
        assert_eq!(Encoding::of(Some("GZIP")), Encoding::Gzip);
        assert_eq!(Encoding::of(Some("x-gzip")), Encoding::Gzip);
        assert_eq!(Encoding::of(Some("deflate")), Encoding::Deflate);
        assert_eq!(Encoding::of(Some("br")), Encoding::Brotli);
        assert_eq!(Encoding::of(Some("zstd")), Encoding::Identity);
        assert_eq!(Encoding::of(None), Encoding::Identity);
    }
}
