@group(0) @binding(0) var<storage, read_write> out0: array<f32>;
@group(0) @binding(1) var<storage, read_write> out1: array<f32>;
struct Params { h: array<vec4<u32>, 4>, s: array<vec4<f32>, 1>, r: vec4<u32> };
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
    for (var i: u32 = gid.x + params.r.x; i < params.h[0].x; i = i + nwg.x * 256u) {
      let v1 = i * 4u + 0u;
      let v2 = i * 4u + 1u;
      let v3 = i * 4u + 2u;
      let v4 = i * 4u + 3u;
      var c5: f32 = params.s[0].x;
      var c6: f32 = params.s[0].y;
      var c7: f32 = params.s[0].x;
      var c8: f32 = params.s[0].y;
      var c9: f32 = params.s[0].x;
      var c10: f32 = params.s[0].y;
      var c11: f32 = params.s[0].x;
      var c12: f32 = params.s[0].y;
      var c13: u32 = 0u;
      var c14: u32 = 0u;
      for (var k15: u32 = 0u; k15 < params.h[0].z; k15 = k15 + 1u) {
        let v16 = params.h[1].w + c13;
        let v17 = params.h[2].x + c14 + select(0u, 1u, v16 < params.h[1].w);
        let v18 = v16 + i;
        let v19 = v17 + select(0u, 1u, v18 < v16);
        let v20 = philox4x32_10(vec4<u32>(v18, v19, 0u, 0u), vec2<u32>(params.h[1].y, params.h[1].z));
        let v21 = u01_f32(v20[0u]);
        let v22 = u01_f32(v20[0u + 1u]);
        let v23 = sqrt(-2.0 * log(v21));
        let v24 = 6.2831855 * v22;
        let v25 = v23 * sin(v24);
        let v26 = v23 * cos(v24);
        let v27 = (params.s[0].w * v26);
        let v28 = (params.s[0].z + v27);
        let v29 = exp(v28);
        let v30 = (c5 * v29);
        let v31 = (c6 + v30);
        let v32 = (params.s[0].w * v25);
        let v33 = (params.s[0].z + v32);
        let v34 = exp(v33);
        let v35 = (c7 * v34);
        let v36 = (c8 + v35);
        let v37 = u01_f32(v20[2u]);
        let v38 = u01_f32(v20[2u + 1u]);
        let v39 = sqrt(-2.0 * log(v37));
        let v40 = 6.2831855 * v38;
        let v41 = v39 * sin(v40);
        let v42 = v39 * cos(v40);
        let v43 = (params.s[0].w * v42);
        let v44 = (params.s[0].z + v43);
        let v45 = exp(v44);
        let v46 = (c9 * v45);
        let v47 = (c10 + v46);
        let v48 = (params.s[0].w * v41);
        let v49 = (params.s[0].z + v48);
        let v50 = exp(v49);
        let v51 = (c11 * v50);
        let v52 = (c12 + v51);
        c5 = v30;
        c6 = v31;
        c7 = v35;
        c8 = v36;
        c9 = v46;
        c10 = v47;
        c11 = v51;
        c12 = v52;
        let v53 = c13 + params.h[0].w;
        c14 = c14 + params.h[1].x + select(0u, 1u, v53 < c13);
        c13 = v53;
      }
      out0[v1] = c5;
      out0[v2] = c7;
      out0[v3] = c9;
      out0[v4] = c11;
      out1[v1] = c6;
      out1[v2] = c8;
      out1[v3] = c10;
      out1[v4] = c12;
    }
}
