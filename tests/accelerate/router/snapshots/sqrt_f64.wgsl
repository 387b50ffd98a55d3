@group(0) @binding(0) var<storage, read> in0: array<f64>;
@group(0) @binding(1) var<storage, read_write> out0: array<f64>;
@group(0) @binding(2) var<storage, read_write> flag: array<u32>;
struct Params { h: array<vec4<u32>, 2>, s: array<vec4<f64>, 1>, r: vec4<u32> };
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    for (var i: u32 = gid.x + params.r.x; i < params.h[0].x; i = i + nwg.x * 256u) {
      let v1 = in0[i - params.r.x];
      if (v1 < f64(0.0)) { flag[0] = 1u; }
      let v2 = sqrt(v1);
      out0[i - params.r.x] = v2;
    }
}
