@group(0) @binding(0) var<storage, read_write> out0: array<f32>;
struct Params { h: array<vec4<u32>, 2>, s: array<vec4<f32>, 1>, r: vec4<u32> };
@group(0) @binding(1) var<uniform> params: Params;

fn mulhilo32(a: u32, b: u32) -> vec2<u32> {
  let a_lo = a & 0xffffu; let a_hi = a >> 16u;
  let b_lo = b & 0xffffu; let b_hi = b >> 16u;
  let ll = a_lo * b_lo; let lh = a_lo * b_hi; let hl = a_hi * b_lo; let hh = a_hi * b_hi;
  let mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  let lo = (ll & 0xffffu) | (mid << 16u);
  let hi = hh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
  return vec2<u32>(hi, lo);
}
fn philox4x32_10(ctr_in: vec4<u32>, key_in: vec2<u32>) -> vec4<u32> {
  var c = ctr_in; var k = key_in;
  for (var round: u32 = 0u; round < 10u; round = round + 1u) {
    if (round > 0u) { k = vec2<u32>(k.x + 0x9E3779B9u, k.y + 0xBB67AE85u); }
    let p0 = mulhilo32(0xD2511F53u, c.x);
    let p1 = mulhilo32(0xCD9E8D57u, c.z);
    c = vec4<u32>(p1.x ^ c.y ^ k.x, p1.y, p0.x ^ c.w ^ k.y, p0.y);
  }
  return c;
}

fn u01_f32(x: u32) -> f32 {
  return (f32(x >> 9u) + 0.5) * (1.0 / 8388608.0);
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    for (var i: u32 = gid.x + params.r.x; i < params.h[0].x; i = i + nwg.x * 256u) {
      let v1 = i >> 2u;
      let v2 = params.h[1].x + v1;
      let v3 = params.h[1].y + select(0u, 1u, v2 < params.h[1].x);
      let v4 = philox4x32_10(vec4<u32>(v2, v3, 0u, 0u), vec2<u32>(params.h[0].z, params.h[0].w));
      let v5 = (i & 2u);
      let v6 = u01_f32(v4[v5]);
      let v7 = u01_f32(v4[v5 + 1u]);
      let v8 = sqrt(-2.0 * log(v6));
      let v9 = 6.2831855 * v7;
      let v10 = v8 * sin(v9);
      let v11 = v8 * cos(v9);
      let v12 = select(v11, v10, (i & 1u) == 1u);
      let v13 = (params.s[0].y + v12);
      let v14 = exp(v13);
      let v15 = (params.s[0].x * v14);
      out0[i - params.r.x] = v15;
    }
}
