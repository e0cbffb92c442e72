//! [`HlslError`]: what [`Error::Hlsl`](crate::Error::Hlsl) holds (docs/hlsl.md).

/// Why an HLSL kernel (`Source::hlsl`, feature `hlsl`) was not translated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HlslError {
    /// glslang's HLSL front end rejected the kernel, naga could not read its SPIR-V, or the
    /// entry point names no function: the message names the file and line
    /// (`kernel.hlsl:4: error: …`) with the source line under it.
    #[error("kernel `{kernel}`: HLSL error\n{message}")]
    Compile {
        /// The kernel (HLSL file path or label).
        kernel: String,
        /// The rendered diagnostic.
        message: String,
    },
    /// The kernel uses a construct Shoal refuses (docs/hlsl.md lists them): what it is, where,
    /// and what to write instead.
    #[error("kernel `{kernel}`: {location}: {construct} is refused in HLSL; instead: {remedy}")]
    Unsupported {
        /// The kernel (HLSL file path or label).
        kernel: String,
        /// The HLSL construct, with the name, member or offsets at fault in parentheses.
        construct: String,
        /// What to write instead.
        remedy: String,
        /// `file:line` of its first use.
        location: String,
    },
}
