@group(0) @binding(0) var<storage, read_write> out0: array<f32>;
@group(0) @binding(1) var<storage, read_write> out1: array<f32>;
struct Params { h: array<vec4<u32>, 4>, s: array<vec4<f32>, 1> };
@group(0) @binding(2) var<uniform> params: Params;

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
    for (var i: u32 = gid.x; i < params.h[0].x; i = i + nwg.x * 256u) {
      var c1: f32 = params.s[0].x;
      var c2: f32 = params.s[0].y;
      var c3: u32 = 0u;
      var c4: u32 = 0u;
      for (var k5: u32 = 0u; k5 < params.h[0].z; k5 = k5 + 1u) {
        let v6 = params.h[1].w + c3;
        let v7 = params.h[2].x + c4 + select(0u, 1u, v6 < params.h[1].w);
        let v8 = i >> 2u;
        let v9 = v6 + v8;
        let v10 = v7 + select(0u, 1u, v9 < v6);
        let v11 = philox4x32_10(vec4<u32>(v9, v10, 0u, 0u), vec2<u32>(params.h[1].y, params.h[1].z));
        let v12 = (i & 2u);
        let v13 = u01_f32(v11[v12]);
        let v14 = u01_f32(v11[v12 + 1u]);
        let v15 = sqrt(-2.0 * log(v13));
        let v16 = 6.2831855 * v14;
        let v17 = select(v15 * cos(v16), v15 * sin(v16), (i & 1u) == 1u);
        let v18 = (params.s[0].w * v17);
        let v19 = (params.s[0].z + v18);
        let v20 = exp(v19);
        let v21 = (c1 * v20);
        let v22 = (c2 + v21);
        c1 = v21;
        c2 = v22;
        let v23 = c3 + params.h[0].w;
        c4 = c4 + params.h[1].x + select(0u, 1u, v23 < c3);
        c3 = v23;
      }
      out0[i] = c1;
      out1[i] = c2;
    }
}
