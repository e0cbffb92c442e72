//! How an [`Error`] reads: its name, the helpers its messages put together from their fields,
//! and `Debug` as the message (what `fn main() -> Result<..>` and `unwrap` print).

use super::Error;

/// Shoal's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// `items` joined with commas, or `none`.
pub(super) fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

/// How to install the adapter `requested` names, where Shoal knows it.
pub(super) fn hint(requested: &str) -> &'static str {
    match requested {
        "vulkan" => " (on Debian: apt-get install mesa-vulkan-drivers libvulkan1)",
        "gl" => " (on Debian: apt-get install libegl1 libgl1-mesa-dri)",
        _ => "",
    }
}

impl Error {
    /// The variant's name (`"TooManyGroups"`), as `docs/errors.md` heads its section: for logs
    /// and metrics that group errors without matching every variant.
    pub fn name(&self) -> &'static str {
        // Exhaustive, so it stops compiling when a variant is added; `errors_page.rs` checks
        // each name against the enum's source.
        use Error as E;
        match self {
            E::NoAdapter { .. } => "NoAdapter",
            E::UnknownBackend { .. } => "UnknownBackend",
            E::RequestDevice { .. } => "RequestDevice",
            E::Wgsl { .. } => "Wgsl",
            E::StructField(_) => "StructField",
            E::Glsl { .. } => "Glsl",
            E::GlslUnsupported { .. } => "GlslUnsupported",
            E::Hlsl(_) => "Hlsl",
            E::UnknownSnippet { .. } => "UnknownSnippet",
            E::SnippetArguments { .. } => "SnippetArguments",
            E::Block { .. } => "Block",
            E::EntryPoint { .. } => "EntryPoint",
            E::Override { .. } => "Override",
            E::MissingFeature { .. } => "MissingFeature",
            E::WorkgroupTooLarge { .. } => "WorkgroupTooLarge",
            E::WorkgroupMemory { .. } => "WorkgroupMemory",
            E::TooManyGroups { .. } => "TooManyGroups",
            E::NoSize { .. } => "NoSize",
            E::IndirectOffset { .. } => "IndirectOffset",
            E::IndirectOutOfBounds { .. } => "IndirectOutOfBounds",
            E::MissingUsage { .. } => "MissingUsage",
            E::Unbound { .. } => "Unbound",
            E::UnknownBinding { .. } => "UnknownBinding",
            E::BindingKind { .. } => "BindingKind",
            E::ElementLayout { .. } => "ElementLayout",
            E::Immediates(_) => "Immediates",
            E::BufferTooSmall { .. } => "BufferTooSmall",
            E::ImageSize { .. } => "ImageSize",
            E::ImageUsage { .. } => "ImageUsage",
            E::TexelType { .. } => "TexelType",
            E::ImageFormat { .. } => "ImageFormat",
            E::ImageDimension { .. } => "ImageDimension",
            E::StorageAccess { .. } => "StorageAccess",
            E::Unfilterable { .. } => "Unfilterable",
            E::AppendOverflow { .. } => "AppendOverflow",
            E::PrintfOverflow { .. } => "PrintfOverflow",
            E::ElementCodec { .. } => "ElementCodec",
            E::Length { .. } => "Length",
            E::Readback(_) => "Readback",
            E::Timeout { .. } => "Timeout",
            E::DeviceLost { .. } => "DeviceLost",
            E::Wgpu { .. } => "Wgpu",
            E::Io { .. } => "Io",
            E::WrongGpu { .. } => "WrongGpu",
            E::Aliasing { .. } => "Aliasing",
            E::BindingTooLarge { .. } => "BindingTooLarge",
            E::BindingNumber { .. } => "BindingNumber",
            E::TooManyBindings { .. } => "TooManyBindings",
            E::ResourceTooLarge { .. } => "ResourceTooLarge",
            E::InvalidParameter { .. } => "InvalidParameter",
        }
    }
}

/// The message, then the variant: `fn main() -> Result<(), Box<dyn Error>>` and `unwrap` print
/// `Debug`, and a derived one would show the fields (a WGSL error's caret excerpt as one escaped
/// line) instead of the message written for them. Match on the variant for the fields.
impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self} (shoal::Error::{})", self.name())
    }
}
