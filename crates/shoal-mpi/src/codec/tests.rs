//! Every `shoal::Error` variant (and every nested error's) survives the bytes unchanged.

use std::time::Duration;

use shoal::{Error, FieldMismatch, HlslError, ImmediateError};

use super::{decode, encode, variant_name};

#[test]
fn variant_names_come_from_debug() {
    assert_eq!(
        variant_name(&format!("{:?}", Error::NoSize { kernel: s("k") })),
        "NoSize"
    );
    let hlsl = HlslError::Compile {
        kernel: s("k"),
        message: s("m"),
    };
    assert_eq!(variant_name(&format!("{hlsl:?}")), "Compile");
}

fn s(x: &str) -> String {
    format!("{x} ü")
}

fn names() -> Vec<String> {
    vec![s("a"), String::new(), s("c")]
}

/// One value of every variant, every field set to something that is not its default.
fn every_error() -> Vec<Error> {
    vec![
        Error::NoAdapter {
            requested: s("gl"),
            found: names(),
        },
        Error::UnknownBackend { value: s("vk") },
        Error::RequestDevice {
            adapter: s("lavapipe"),
            message: s("m"),
        },
        Error::Wgsl {
            kernel: s("k"),
            message: s("m"),
        },
        Error::Glsl {
            kernel: s("k"),
            message: s("m"),
        },
        Error::GlslUnsupported {
            kernel: s("k"),
            construct: s("c"),
            wgsl: s("w"),
            location: s("l"),
        },
        Error::Hlsl(HlslError::Compile {
            kernel: s("k"),
            message: s("m"),
        }),
        Error::Hlsl(HlslError::Unsupported {
            kernel: s("k"),
            construct: s("c"),
            remedy: s("r"),
            location: s("l"),
        }),
        Error::UnknownSnippet {
            kernel: s("k"),
            name: s("n"),
            available: names(),
        },
        Error::SnippetArguments {
            kernel: s("k"),
            name: s("n"),
            params: names(),
            got: 7,
        },
        Error::Block {
            kernel: s("k"),
            name: s("n"),
            message: s("m"),
        },
        Error::EntryPoint {
            kernel: s("k"),
            requested: Some(s("main")),
            available: names(),
        },
        Error::EntryPoint {
            kernel: s("k"),
            requested: None,
            available: vec![],
        },
        Error::Override {
            kernel: s("k"),
            message: s("m"),
        },
        Error::MissingFeature {
            kernel: s("k"),
            feature: s("f"),
            adapter: s("a"),
            location: Some(s("k.comp:7")),
            remedy: s("r"),
        },
        Error::WorkgroupTooLarge {
            kernel: s("k"),
            size: [1, 2, 3],
            invocations: 6,
            limit_name: "maxComputeInvocationsPerWorkgroup",
            limit: 5,
        },
        Error::WorkgroupMemory {
            kernel: s("k"),
            bytes: u64::MAX,
            limit: u32::MAX,
        },
        Error::TooManyGroups {
            kernel: s("k"),
            groups: [65536, 1, 9],
            dimension: 2,
            limit: 65535,
            remedy: s("r"),
        },
        Error::NoSize { kernel: s("k") },
        Error::IndirectOffset {
            kernel: s("k"),
            offset: 3,
        },
        Error::IndirectOutOfBounds {
            kernel: s("k"),
            offset: 8,
            buffer_bytes: 12,
        },
        Error::MissingUsage {
            kernel: s("k"),
            binding: s("b"),
            usage: s("u"),
            has: s("h"),
            fix: s("f"),
        },
        Error::Unbound {
            kernel: s("k"),
            binding: s("b"),
            group: 1,
            index: 2,
        },
        Error::UnknownBinding {
            kernel: s("k"),
            binding: s("b"),
            available: names(),
        },
        Error::BindingKind {
            kernel: s("k"),
            binding: s("b"),
            expected: s("e"),
            got: s("g"),
        },
        Error::ElementLayout {
            kernel: s("k"),
            binding: s("b"),
            wgsl_type: s("vec3<f32>"),
            wgsl_bytes: 16,
            rust_type: s("[f32; 3]"),
            rust_bytes: 12,
            hint: s("h"),
        },
        Error::Immediates(ImmediateError::Layout {
            kernel: s("k"),
            declaration: s("d"),
            wgsl_type: s("w"),
            wgsl_bytes: 8,
            rust_type: s("r"),
            rust_bytes: 4,
            hint: s("h"),
        }),
        Error::Immediates(ImmediateError::NotDeclared {
            kernel: s("k"),
            rust_type: s("r"),
        }),
        Error::Immediates(ImmediateError::Missing {
            kernel: s("k"),
            declaration: s("d"),
            wgsl_type: s("w"),
            wgsl_bytes: 8,
        }),
        Error::Immediates(ImmediateError::Bound {
            kernel: s("k"),
            name: s("n"),
            declaration: s("d"),
        }),
        Error::StructField(Box::new(FieldMismatch {
            kernel: s("k"),
            binding: s("b"),
            wgsl_struct: s("P"),
            rust_type: s("R"),
            member: s("m"),
            wgsl: s("u32 at byte 16"),
            rust: s("u32 at byte 20"),
            fix: s("f"),
        })),
        Error::BufferTooSmall {
            kernel: s("k"),
            binding: s("b"),
            wgsl_type: s("w"),
            needed: 64,
            got: 60,
        },
        Error::ImageSize {
            width: 0,
            height: 9,
            limit: 8192,
        },
        Error::ImageUsage {
            format: s("f"),
            usage: s("u"),
        },
        Error::TexelType {
            format: s("f"),
            expected: "f32",
            got: "u8",
        },
        Error::ImageFormat {
            kernel: s("k"),
            binding: s("b"),
            expected: s("e"),
            got: s("g"),
        },
        Error::ImageDimension {
            kernel: s("k"),
            binding: s("b"),
            expected: s("e"),
            got: s("g"),
        },
        Error::StorageAccess {
            kernel: s("k"),
            binding: s("b"),
            declared: s("d"),
            allowed: s("a"),
            adapter: s("ad"),
            remedy: s("r"),
        },
        Error::Unfilterable {
            kernel: s("k"),
            binding: s("b"),
            sampler: s("s"),
            format: s("f"),
        },
        Error::AppendOverflow {
            what: s("w"),
            capacity: 4,
            attempted: 5,
        },
        Error::PrintfOverflow {
            kernel: s("k"),
            capacity: 4,
            attempted: 5,
        },
        Error::ElementCodec {
            type_name: s("t"),
            operation: "read back",
            reason: s("r"),
        },
        Error::Length {
            what: s("w"),
            expected: 3,
            got: 4,
        },
        Error::Readback(s("r")),
        Error::Timeout {
            what: s("w"),
            waited: Duration::new(3, 999_999_999),
            limit: Duration::from_millis(2500),
        },
        Error::DeviceLost {
            what: s("w"),
            reason: s("r"),
        },
        Error::Wgpu {
            context: s("c"),
            message: s("m"),
        },
        Error::Io {
            path: s("p"),
            message: s("m"),
        },
        Error::WrongGpu {
            what: s("w"),
            resource_gpu: s("r"),
            expected_gpu: s("e"),
        },
        Error::Aliasing {
            kernel: s("k"),
            first: s("a"),
            first_access: "read_write",
            second: s("b"),
            second_access: "read",
        },
        Error::BindingTooLarge {
            kernel: s("k"),
            binding: s("b"),
            bytes: 1 << 40,
            limit_name: "max_storage_buffer_binding_size",
            limit: 1 << 27,
        },
        Error::BindingNumber {
            kernel: s("k"),
            binding: s("b"),
            group: 4,
            index: 1000,
            limit_name: "max_bind_groups",
            limit: 4,
        },
        Error::TooManyBindings {
            kernel: s("k"),
            kind: "storage buffers",
            count: 9,
            limit_name: "max_storage_buffers_per_shader_stage",
            limit: 8,
        },
        Error::ResourceTooLarge {
            what: s("w"),
            bytes: u128::from(u64::MAX) * 4,
            limit_name: "max_buffer_size",
            limit: 1 << 28,
        },
        Error::InvalidParameter {
            kernel: s("k"),
            parameter: s("p"),
            value: s("v"),
            rule: s("r"),
        },
    ]
}

#[test]
fn every_variant_round_trips_with_its_type_and_fields() {
    for e in every_error() {
        let bytes = encode(&e);
        let back = decode(&bytes);
        assert_eq!(back, e, "{}", e.name());
        assert_eq!(back.to_string(), e.to_string());
    }
}

/// The list above is every variant `shoal::Error` declares: a new variant without its tag in
/// the codec would otherwise cross as `Error::Wgpu` unnoticed.
#[test]
fn every_declared_variant_is_covered() {
    let source = include_str!("../../../shoal/src/error.rs");
    let body = source.split("pub enum Error {").nth(1).expect("the enum");
    let declared: Vec<&str> = body
        .lines()
        .filter_map(|l| l.strip_prefix("    "))
        .filter(|l| l.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|l| l.split([' ', '(', '{', ',']).next().unwrap_or_default())
        .collect();
    assert!(declared.len() > 40, "parsed {declared:?}");
    let covered: Vec<&str> = every_error().iter().map(Error::name).collect();
    for v in &declared {
        assert!(covered.contains(v), "no round trip for Error::{v}");
    }
}

/// The same limit name read twice is the same static string, not a second allocation.
#[test]
fn static_names_are_interned() {
    let e = Error::TexelType {
        format: s("f"),
        expected: "f32",
        got: "f32",
    };
    let (a, b) = (decode(&encode(&e)), decode(&encode(&e)));
    match (a, b) {
        (
            Error::TexelType {
                expected: x,
                got: y,
                ..
            },
            Error::TexelType { expected: z, .. },
        ) => {
            assert!(std::ptr::eq(x, y) && std::ptr::eq(x, z));
        }
        other => panic!("not TexelType: {other:?}"),
    }
}

/// A variant this side does not know (tag 0, or a tag past the list) is `Error::Wgpu` with
/// the name and text the sender wrote; cut-short bytes give an error, never a panic.
#[test]
fn unknown_and_damaged_bytes_still_give_an_error() {
    let mut bytes = vec![0u8];
    for text in ["a rank's Future", "what went wrong"] {
        bytes.extend((text.len() as u64).to_le_bytes());
        bytes.extend(text.as_bytes());
    }
    assert_eq!(
        decode(&bytes),
        Error::Wgpu {
            context: "a rank's Future".into(),
            message: "what went wrong".into()
        }
    );
    bytes[0] = 200;
    assert!(matches!(decode(&bytes), Error::Wgpu { .. }));
    for e in every_error() {
        let full = encode(&e);
        for cut in 0..full.len() {
            let _ = decode(&full[..cut]).to_string();
        }
    }
    assert!(matches!(decode(&[]), Error::Wgpu { .. }));
}
