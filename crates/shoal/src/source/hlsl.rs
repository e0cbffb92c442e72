//! [`Source::hlsl`]: an HLSL compute kernel translated to WGSL at run time (native), on the GLSL
//! route (glslang's HLSL front end, naga); docs/hlsl.md.

use super::Source;

impl Source {
    /// One entry point of an HLSL compute kernel (the `[numthreads]` function `entry`),
    /// translated to WGSL now (native only: for the browser use [`hlsl!`](crate::hlsl), which
    /// translates at compile time). Messages name `path`. Resources are bound by their HLSL names
    /// (a `cbuffer` by the `cbuffer`'s name; a word WGSL reserves, such as `target`, is
    /// `target_` in the WGSL, [`Source::aliases`]), whatever their registers; registers of each kind
    /// (`b`, `t`, `s`, `u`) get their own binding numbers, so `b0` and `t0` never collide, and
    /// an explicit `[[vk::binding(n)]]` keeps its number. An HLSL error is
    /// [`Error::Hlsl`](crate::Error::Hlsl): [`HlslError::Compile`](crate::HlslError::Compile)
    /// with `path:line`, or [`HlslError::Unsupported`](crate::HlslError::Unsupported) for a
    /// construct Shoal refuses, with its line and remedy.
    ///
    /// ```
    /// let source = shoal::Source::hlsl("double.hlsl", "
    /// RWStructuredBuffer<float> gData : register(u0);
    /// [numthreads(64, 1, 1)]
    /// void CS(uint3 id : SV_DispatchThreadID) { gData[id.x] *= 2.0f; }", "CS")?;
    /// assert_eq!(shoal::validate(&source)?[0].bindings[0].name, "gData");
    /// # Ok::<(), shoal::Error>(())
    /// ```
    pub fn hlsl(path: impl Into<String>, text: &str, entry: &str) -> crate::Result<Self> {
        let path = path.into();
        match shoal_glsl::hlsl::translate(&path, text, entry) {
            Ok(translation) => {
                let notes = super::Notes::from(&translation);
                let mut source = Self::new(path, translation.wgsl);
                source.notes = notes;
                Ok(source)
            }
            Err(shoal_glsl::Error::Unsupported {
                construct,
                wgsl,
                location,
            }) => Err(crate::Error::Hlsl(crate::HlslError::Unsupported {
                kernel: path,
                construct,
                remedy: wgsl.to_string(),
                location,
            })),
            Err(e) => Err(crate::Error::Hlsl(crate::HlslError::Compile {
                kernel: path,
                message: e.to_string(),
            })),
        }
    }

    /// Reads an HLSL compute kernel from disk and translates its entry point `entry`
    /// ([`Source::hlsl`]), e.g. to reload an edited kernel.
    pub fn hlsl_file(path: impl AsRef<std::path::Path>, entry: &str) -> crate::Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| crate::Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Self::hlsl(path.display().to_string(), &text, entry)
    }
}
