//! The device's compute limits under the names of the compute-shader specification
//! (ARB_compute_shader, table 6.50), beside the minimum values it requires.

use std::fmt;

/// Compute limits of a device, named as in the specification.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    /// MAX_COMPUTE_WORK_GROUP_COUNT: work groups per dispatch, per dimension.
    pub max_compute_work_group_count: [u32; 3],
    /// MAX_COMPUTE_WORK_GROUP_SIZE: local size per dimension.
    pub max_compute_work_group_size: [u32; 3],
    /// MAX_COMPUTE_WORK_GROUP_INVOCATIONS: invocations in one work group.
    pub max_compute_work_group_invocations: u32,
    /// MAX_COMPUTE_SHARED_MEMORY_SIZE: bytes of all `var<workgroup>` variables together.
    pub max_compute_shared_memory_size: u32,
    /// Largest storage-buffer binding, in bytes.
    pub max_storage_buffer_binding_size: u64,
    /// Largest uniform-buffer binding, in bytes.
    pub max_uniform_buffer_binding_size: u64,
    /// Storage buffers one shader stage may use.
    pub max_storage_buffers_per_shader_stage: u32,
    /// Uniform buffers one shader stage may use (the specification's MAX_COMPUTE_UNIFORM_BLOCKS).
    pub max_uniform_buffers_per_shader_stage: u32,
    /// Storage textures one shader stage may use (MAX_COMPUTE_IMAGE_UNIFORMS).
    pub max_storage_textures_per_shader_stage: u32,
    /// Sampled textures one shader stage may use (MAX_COMPUTE_TEXTURE_IMAGE_UNITS).
    pub max_sampled_textures_per_shader_stage: u32,
    /// Bind groups a pipeline may use.
    pub max_bind_groups: u32,
    /// Largest buffer, in bytes.
    pub max_buffer_size: u64,
    /// Byte offsets a storage buffer may be bound at are multiples of this (the device's own;
    /// Shoal binds a [`Buffer::slice`](crate::Buffer::slice) at multiples of
    /// [`slice_alignment`](Self::slice_alignment)).
    pub min_storage_buffer_offset_alignment: u32,
    /// The same for uniform buffers.
    pub min_uniform_buffer_offset_alignment: u32,
}

/// WebGPU's default `minStorageBufferOffsetAlignment` and `minUniformBufferOffsetAlignment`, what
/// browsers give: Shoal binds slices at multiples of it on every backend, so a program that runs
/// natively also runs in the browser.
pub const PORTABLE_OFFSET_ALIGNMENT: u32 = 256;

/// One row of the limits table: the specification's name, the device's value, the minimum.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitRow {
    /// The specification's name (or wgpu's where the specification has none).
    pub name: &'static str,
    /// The device's value(s).
    pub value: Vec<u64>,
    /// The specification's minimum value(s), where it gives one.
    pub minimum: Option<Vec<u64>>,
}

impl LimitRow {
    /// Whether the device meets the specification's minimum (true when there is none).
    pub fn meets_minimum(&self) -> bool {
        match &self.minimum {
            Some(min) => self.value.iter().zip(min).all(|(v, m)| v >= m),
            None => true,
        }
    }
}

impl Limits {
    /// Reads the compute limits out of wgpu's limits.
    pub fn from_wgpu(l: &wgpu::Limits) -> Self {
        Self {
            max_compute_work_group_count: [l.max_compute_workgroups_per_dimension; 3],
            max_compute_work_group_size: [
                l.max_compute_workgroup_size_x,
                l.max_compute_workgroup_size_y,
                l.max_compute_workgroup_size_z,
            ],
            max_compute_work_group_invocations: l.max_compute_invocations_per_workgroup,
            max_compute_shared_memory_size: l.max_compute_workgroup_storage_size,
            max_storage_buffer_binding_size: l.max_storage_buffer_binding_size,
            max_uniform_buffer_binding_size: l.max_uniform_buffer_binding_size,
            max_storage_buffers_per_shader_stage: l.max_storage_buffers_per_shader_stage,
            max_uniform_buffers_per_shader_stage: l.max_uniform_buffers_per_shader_stage,
            max_storage_textures_per_shader_stage: l.max_storage_textures_per_shader_stage,
            max_sampled_textures_per_shader_stage: l.max_sampled_textures_per_shader_stage,
            max_bind_groups: l.max_bind_groups,
            max_buffer_size: l.max_buffer_size,
            min_storage_buffer_offset_alignment: l.min_storage_buffer_offset_alignment,
            min_uniform_buffer_offset_alignment: l.min_uniform_buffer_offset_alignment,
        }
    }

    /// The byte offsets a [`Buffer::slice`](crate::Buffer::slice) may be bound at are multiples
    /// of this: [`PORTABLE_OFFSET_ALIGNMENT`] (256), or the device's alignment where larger
    /// (`uniform`: a uniform binding's). Native devices take smaller offsets (32 on lavapipe),
    /// which WebGPU does not promise.
    pub fn slice_alignment(&self, uniform: bool) -> u32 {
        let device = match uniform {
            true => self.min_uniform_buffer_offset_alignment,
            false => self.min_storage_buffer_offset_alignment,
        };
        device.max(PORTABLE_OFFSET_ALIGNMENT)
    }

    /// The table printed by `Display`: every limit beside the specification's minimum (table 6.50
    /// of ARB_compute_shader; storage-binding and bind-group rows have no minimum there).
    pub fn rows(&self) -> Vec<LimitRow> {
        let row = |name, value: Vec<u64>, minimum: Option<Vec<u64>>| LimitRow {
            name,
            value,
            minimum,
        };
        let three = |v: [u32; 3]| v.iter().map(|&x| x as u64).collect::<Vec<_>>();
        vec![
            row(
                "MAX_COMPUTE_WORK_GROUP_COUNT",
                three(self.max_compute_work_group_count),
                Some(vec![65535; 3]),
            ),
            row(
                "MAX_COMPUTE_WORK_GROUP_SIZE",
                three(self.max_compute_work_group_size),
                Some(vec![1024, 1024, 64]),
            ),
            row(
                "MAX_COMPUTE_WORK_GROUP_INVOCATIONS",
                vec![self.max_compute_work_group_invocations as u64],
                Some(vec![1024]),
            ),
            row(
                "MAX_COMPUTE_SHARED_MEMORY_SIZE",
                vec![self.max_compute_shared_memory_size as u64],
                Some(vec![32768]),
            ),
            row(
                "MAX_COMPUTE_UNIFORM_BLOCKS",
                vec![self.max_uniform_buffers_per_shader_stage as u64],
                Some(vec![12]),
            ),
            row(
                "MAX_COMPUTE_TEXTURE_IMAGE_UNITS",
                vec![self.max_sampled_textures_per_shader_stage as u64],
                Some(vec![16]),
            ),
            row(
                "MAX_COMPUTE_IMAGE_UNIFORMS",
                vec![self.max_storage_textures_per_shader_stage as u64],
                Some(vec![8]),
            ),
            row(
                "max storage buffers per stage",
                vec![self.max_storage_buffers_per_shader_stage as u64],
                None,
            ),
            row(
                "max storage buffer binding size",
                vec![self.max_storage_buffer_binding_size],
                None,
            ),
            row(
                "max uniform buffer binding size",
                vec![self.max_uniform_buffer_binding_size],
                None,
            ),
            row("max bind groups", vec![self.max_bind_groups as u64], None),
            row("max buffer size", vec![self.max_buffer_size], None),
        ]
    }

    /// The rows whose value is below the specification's minimum.
    pub fn below_minimum(&self) -> Vec<LimitRow> {
        self.rows()
            .into_iter()
            .filter(|r| !r.meets_minimum())
            .collect()
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" x ");
        writeln!(
            f,
            "{:<36} {:>24} {:>24}",
            "limit", "this device", "spec minimum"
        )?;
        for r in self.rows() {
            let min = r.minimum.as_deref().map(show).unwrap_or_else(|| "-".into());
            let flag = if r.meets_minimum() {
                ""
            } else {
                "  (below minimum)"
            };
            writeln!(f, "{:<36} {:>24} {:>24}{flag}", r.name, show(&r.value), min)?;
        }
        Ok(())
    }
}
