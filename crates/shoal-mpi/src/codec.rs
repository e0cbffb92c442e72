//! The errors ranks agree on, as bytes: MPI moves bytes, and every rank must return the same
//! typed `shoal::Error`. The variants a rank's part or device can fail with in the spread
//! primitives keep their type and fields; any other arrives as `Error::Wgpu` whose context
//! names the variant and whose message is its text.

use shoal::Error;

/// Strings and numbers, each string's length before it.
fn put(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn number(&mut self) -> u64 {
        let (head, rest) = self.0.split_at(8.min(self.0.len()));
        self.0 = rest;
        let mut w = [0u8; 8];
        w[..head.len()].copy_from_slice(head);
        u64::from_le_bytes(w)
    }

    fn text(&mut self) -> String {
        let len = (self.number() as usize).min(self.0.len());
        let (s, rest) = self.0.split_at(len);
        self.0 = rest;
        String::from_utf8_lossy(s).into_owned()
    }
}

/// `e` as bytes (never empty: the first is the variant's tag).
pub(crate) fn encode(e: &Error) -> Vec<u8> {
    let mut out = Vec::new();
    match e {
        Error::Length { what, expected, got } => {
            out.push(1);
            put(&mut out, what);
            out.extend(expected.to_le_bytes());
            out.extend(got.to_le_bytes());
        }
        Error::InvalidParameter { kernel, parameter, value, rule } => {
            out.push(2);
            for s in [kernel, parameter, value, rule] {
                put(&mut out, s);
            }
        }
        Error::Override { kernel, message } => {
            out.push(3);
            put(&mut out, kernel);
            put(&mut out, message);
        }
        Error::NoAdapter { requested, found } => {
            out.push(4);
            put(&mut out, requested);
            out.extend((found.len() as u64).to_le_bytes());
            for f in found {
                put(&mut out, f);
            }
        }
        Error::RequestDevice { adapter, message } => {
            out.push(5);
            put(&mut out, adapter);
            put(&mut out, message);
        }
        Error::Readback(message) => {
            out.push(6);
            put(&mut out, message);
        }
        Error::WrongGpu { what, resource_gpu, expected_gpu } => {
            out.push(7);
            for s in [what, resource_gpu, expected_gpu] {
                put(&mut out, s);
            }
        }
        other => {
            out.push(0);
            let debug = format!("{other:?}");
            let variant = debug.split([' ', '(', '{']).next().unwrap_or_default();
            put(&mut out, &format!("a rank's {variant}"));
            put(&mut out, &other.to_string());
        }
    }
    out
}

/// The error [`encode`] wrote.
pub(crate) fn decode(bytes: &[u8]) -> Error {
    let (tag, rest) = bytes.split_first().map_or((0, &[][..]), |(t, r)| (*t, r));
    let mut r = Reader(rest);
    match tag {
        1 => Error::Length { what: r.text(), expected: r.number(), got: r.number() },
        2 => Error::InvalidParameter {
            kernel: r.text(),
            parameter: r.text(),
            value: r.text(),
            rule: r.text(),
        },
        3 => Error::Override { kernel: r.text(), message: r.text() },
        4 => {
            let requested = r.text();
            let found = (0..r.number()).map(|_| r.text()).collect();
            Error::NoAdapter { requested, found }
        }
        5 => Error::RequestDevice { adapter: r.text(), message: r.text() },
        6 => Error::Readback(r.text()),
        7 => Error::WrongGpu { what: r.text(), resource_gpu: r.text(), expected_gpu: r.text() },
        _ => Error::Wgpu { context: r.text(), message: r.text() },
    }
}
