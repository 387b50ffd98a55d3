@group(0) @binding(0) var<storage, read> in0: array<f64>;
@group(0) @binding(1) var<storage, read> in1: array<f64>;
@group(0) @binding(2) var<storage, read_write> out0: array<u32>;
struct Params { h: array<vec4<u32>, 2>, s: array<vec4<f64>, 1>, r: vec4<u32> };
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    for (var i: u32 = gid.x + params.r.x; i < params.h[0].x; i = i + nwg.x * 256u) {
      let v1 = in0[i - params.r.x];
      let v2 = ((i / 64u) % 8u);
      let v3 = in1[v2];
      let v4 = (v1 < v3);
      out0[i - params.r.x] = select(0u, 1u, v4);
    }
}
