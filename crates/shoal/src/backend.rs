//! Which wgpu backend to use: `SHOAL_BACKEND=vulkan|gl|metal|dx12|webgpu|auto`.

use crate::error::{Error, Result};

/// A backend choice, usually read from the `SHOAL_BACKEND` environment variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BackendChoice {
    /// The best adapter found (hardware before software; Vulkan, Metal, DX12, then GL).
    #[default]
    Auto,
    /// Vulkan (lavapipe on a machine without a GPU).
    Vulkan,
    /// OpenGL / GLES (llvmpipe through EGL on a machine without a GPU).
    Gl,
    /// Metal.
    Metal,
    /// Direct3D 12.
    Dx12,
    /// WebGPU in the browser.
    WebGpu,
}

impl BackendChoice {
    /// Reads `SHOAL_BACKEND`; unset or empty means [`BackendChoice::Auto`].
    pub fn from_env() -> Result<Self> {
        match std::env::var("SHOAL_BACKEND") {
            Ok(value) => Self::parse(&value),
            Err(_) => Ok(Self::Auto),
        }
    }

    /// Parses a backend name (case-insensitive; `vk`, `opengl`, `gles`, `d3d12`, `browser` too).
    pub fn parse(value: &str) -> Result<Self> {
        Ok(match value.trim().to_ascii_lowercase().as_str() {
            "" | "auto" => Self::Auto,
            "vulkan" | "vk" => Self::Vulkan,
            "gl" | "gles" | "opengl" => Self::Gl,
            "metal" | "mtl" => Self::Metal,
            "dx12" | "d3d12" => Self::Dx12,
            "webgpu" | "browser" => Self::WebGpu,
            _ => {
                return Err(Error::UnknownBackend {
                    value: value.to_string(),
                });
            }
        })
    }

    /// The wgpu backends this choice admits.
    pub fn backends(self) -> wgpu::Backends {
        match self {
            Self::Auto => wgpu::Backends::all(),
            Self::Vulkan => wgpu::Backends::VULKAN,
            Self::Gl => wgpu::Backends::GL,
            Self::Metal => wgpu::Backends::METAL,
            Self::Dx12 => wgpu::Backends::DX12,
            Self::WebGpu => wgpu::Backends::BROWSER_WEBGPU,
        }
    }

    /// The name used in `SHOAL_BACKEND` and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Vulkan => "vulkan",
            Self::Gl => "gl",
            Self::Metal => "metal",
            Self::Dx12 => "dx12",
            Self::WebGpu => "webgpu",
        }
    }
}

/// Orders adapters for [`BackendChoice::Auto`]: lower is better.
pub(crate) fn preference(info: &wgpu::AdapterInfo) -> (u8, u8) {
    let kind = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    };
    let backend = match info.backend {
        wgpu::Backend::Vulkan => 0,
        wgpu::Backend::Metal => 1,
        wgpu::Backend::Dx12 => 2,
        wgpu::Backend::BrowserWebGpu => 3,
        _ => 4,
    };
    (kind, backend)
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn parses_every_name_and_rejects_others() {
        assert_eq!(
            BackendChoice::parse("Vulkan").ok(),
            Some(BackendChoice::Vulkan)
        );
        assert_eq!(BackendChoice::parse("gl").ok(), Some(BackendChoice::Gl));
        assert_eq!(BackendChoice::parse("").ok(), Some(BackendChoice::Auto));
        assert_eq!(
            BackendChoice::parse("webgpu").ok(),
            Some(BackendChoice::WebGpu)
        );
        assert!(matches!(
            BackendChoice::parse("cuda"),
            Err(Error::UnknownBackend { .. })
        ));
    }
}
