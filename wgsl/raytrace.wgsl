// Sphere ray tracer (the OpenGL compute-shader lesson's 024_ComputeShaderRaytracing.glsl), then beyond the lesson.
//
// `raytrace_ortho` is the document's shader: orthographic rays along -z, a sphere at (0, 0, -10)
// of radius 1, the view spanning max_x = max_y = 5, the hit colour (0.4, 0.4, 1.0, 1.0) on black.
// The document runs 1 x 1 work groups, one per pixel; here the size is an override planned from
// the device, and invocations past the edge return.
//
// `raytrace_scene` goes further: several spheres and a plane, a perspective camera, Lambert
// shading, hard shadows and one reflection bounce, all from a uniform.

override WX: u32 = 16;
override WY: u32 = 16;

@group(0) @binding(0) var img_output: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(WX, WY)
fn raytrace_ortho(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = vec2<i32>(textureDimensions(img_output));
    let pixel_coords = vec2<i32>(gid.xy);
    if any(pixel_coords >= dims) {
        return;
    }
    var pixel = vec4<f32>(0.0, 0.0, 0.0, 1.0);
    let sphere_c = vec3<f32>(0.0, 0.0, -10.0);
    let sphere_r = 1.0;
    let max_x = 5.0;
    let max_y = 5.0;
    let x = f32(pixel_coords.x * 2 - dims.x) / f32(dims.x);
    let y = f32(pixel_coords.y * 2 - dims.y) / f32(dims.y);
    let ray_o = vec3<f32>(x * max_x, y * max_y, 0.0);
    let ray_d = vec3<f32>(0.0, 0.0, -1.0);
    let omc = ray_o - sphere_c;
    let b = dot(ray_d, omc);
    let c = dot(omc, omc) - sphere_r * sphere_r;
    let bsqmc = b * b - c;
    if bsqmc >= 0.0 {
        pixel = vec4<f32>(0.4, 0.4, 1.0, 1.0);
    }
    textureStore(img_output, pixel_coords, pixel);
}

struct Sphere {
    center: vec3<f32>,
    radius: f32,
    color: vec3<f32>,
    reflectivity: f32,
}

const MAX_SPHERES: u32 = 4u;

struct Scene {
    eye: vec3<f32>,
    // Vertical field of view, radians.
    fov_y: f32,
    look_at: vec3<f32>,
    // The plane y = plane_y, a checkerboard of unit squares.
    plane_y: f32,
    // Direction towards the (directional) light, normalised.
    light_dir: vec3<f32>,
    sphere_count: u32,
    sky: vec3<f32>,
    ambient: f32,
    plane_a: vec3<f32>,
    plane_reflectivity: f32,
    plane_b: vec3<f32>,
    _pad: f32,
    spheres: array<Sphere, MAX_SPHERES>,
}

@group(0) @binding(1) var<uniform> scene: Scene;

struct Hit {
    t: f32,
    normal: vec3<f32>,
    color: vec3<f32>,
    reflectivity: f32,
}

const FAR: f32 = 1e30;

// The nearest hit along o + t d with t > t_min, or t = FAR.
fn nearest(o: vec3<f32>, d: vec3<f32>, t_min: f32) -> Hit {
    var hit = Hit(FAR, vec3<f32>(0.0), scene.sky, 0.0);
    for (var i = 0u; i < min(scene.sphere_count, MAX_SPHERES); i++) {
        let s = scene.spheres[i];
        let omc = o - s.center;
        let b = dot(d, omc);
        let c = dot(omc, omc) - s.radius * s.radius;
        let disc = b * b - c;
        if disc < 0.0 {
            continue;
        }
        let root = sqrt(disc);
        var t = -b - root;
        if t <= t_min {
            t = -b + root;
        }
        if t > t_min && t < hit.t {
            hit = Hit(t, (o + t * d - s.center) / s.radius, s.color, s.reflectivity);
        }
    }
    if abs(d.y) > 1e-6 {
        let t = (scene.plane_y - o.y) / d.y;
        if t > t_min && t < hit.t {
            let p = o + t * d;
            let checker = (i32(floor(p.x)) + i32(floor(p.z))) & 1;
            let color = select(scene.plane_a, scene.plane_b, checker == 1);
            hit = Hit(t, vec3<f32>(0.0, 1.0, 0.0), color, scene.plane_reflectivity);
        }
    }
    return hit;
}

// Lambert shading with a hard shadow towards the light; the sky where nothing is hit.
fn shade(o: vec3<f32>, d: vec3<f32>, hit: Hit) -> vec3<f32> {
    if hit.t >= FAR {
        return scene.sky;
    }
    let p = o + hit.t * d;
    let lambert = max(dot(hit.normal, scene.light_dir), 0.0);
    let shadow = nearest(p + hit.normal * 1e-3, scene.light_dir, 0.0);
    let lit = select(lambert, 0.0, shadow.t < FAR);
    return hit.color * (scene.ambient + (1.0 - scene.ambient) * lit);
}

@compute @workgroup_size(WX, WY)
fn raytrace_scene(@builtin(global_invocation_id) gid: vec3<u32>) {
    let dims = textureDimensions(img_output);
    if any(gid.xy >= dims) {
        return;
    }
    // Camera basis; pixel (0, 0) is the top-left corner of the picture.
    let forward = normalize(scene.look_at - scene.eye);
    let right = normalize(cross(forward, vec3<f32>(0.0, 1.0, 0.0)));
    let up = cross(right, forward);
    let half_h = tan(scene.fov_y * 0.5);
    let aspect = f32(dims.x) / f32(dims.y);
    let u = ((f32(gid.x) + 0.5) / f32(dims.x) * 2.0 - 1.0) * half_h * aspect;
    let v = (1.0 - (f32(gid.y) + 0.5) / f32(dims.y) * 2.0) * half_h;
    let d = normalize(forward + u * right + v * up);

    let first = nearest(scene.eye, d, 0.0);
    var color = shade(scene.eye, d, first);
    // One reflection bounce.
    if first.t < FAR && first.reflectivity > 0.0 {
        let p = scene.eye + first.t * d;
        let r = reflect(d, first.normal);
        let o = p + first.normal * 1e-3;
        let bounce = shade(o, r, nearest(o, r, 0.0));
        color = mix(color, bounce, first.reflectivity);
    }
    textureStore(img_output, gid.xy, vec4<f32>(color, 1.0));
}
