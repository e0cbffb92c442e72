// GPU printf: every invocation prints its square; the host reads the records back.

#import shoal::printf

@compute @workgroup_size(8)
fn squares(@builtin(global_invocation_id) gid: vec3<u32>) {
    shoal_print_u32(gid, gid.x * gid.x);
}
