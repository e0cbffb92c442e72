// The OpenGL compute-shader lesson's invert for 8-bit pictures as PNG files hold them: `1 - texel` in every channel but alpha.

@group(0) @binding(0) var picture: texture_storage_2d<rgba8unorm, read>;
@group(0) @binding(1) var inverted: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(8, 8)
fn invert(@builtin(global_invocation_id) gid: vec3<u32>) {
    if all(gid.xy < textureDimensions(inverted)) {
        let texel = textureLoad(picture, gid.xy);
        textureStore(inverted, gid.xy, vec4<f32>(1.0 - texel.rgb, texel.a));
    }
}
