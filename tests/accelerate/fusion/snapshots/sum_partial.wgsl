@group(0) @binding(0) var<storage, read_write> out0: array<f32>;
struct Params { h: array<vec4<u32>, 2>, s: array<vec4<f64>, 2> };
@group(0) @binding(1) var<uniform> params: Params;

fn mf_pow_f32(a: f32, b: f32) -> f32 {
  if (b == 2.0) { return a * a; }
  if (b == 1.0) { return a; }
  if (b == 0.0) { return 1.0; }
  if (b == 0.5 && a >= 0.0) { return sqrt(a); }
  let m = pow(abs(a), b);
  if (a < 0.0) {
    if (b != floor(b)) { return m - m + (a - a) / (a - a); }
    if (fract(b * 0.5) != 0.0) { return -m; }
  }
  return m;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let g = gid.x + gid.y * (nwg.x * 256u);
    let valid = g < params.h[0].x;
    let c = g / 8u;
    let tt = g % 8u;
    let a = tt % 1u;
    var acc: f32 = f32(0.0);
    let r_end = select(0u, 1000u, valid);
    for (var r: u32 = tt / 1u; r < r_end; r = r + 8u) {
      let v1 = a + 1u * (r + 1000u * c);
      let v2 = select(params.s[0].x + f64(v1) * params.s[0].z, params.s[0].y, v1 == 999u);
      let v3 = f32(v2);
      let v4 = sin(v3);
      let v5 = (-v3);
      let v6 = (v5 / f32(params.s[0].w));
      let v7 = exp(v6);
      let v8 = (v4 * v7);
      let v9 = (v3 / f32(params.s[1].x));
      let v10 = cos(v9);
      let v11 = (v8 * v10);
      let v12 = mf_pow_f32(v8, f32(params.s[1].z));
      let v13 = (f32(params.s[1].y) * v12);
      let v14 = (v11 + v13);
      let v15 = tanh(v14);
      let v16 = (f32(params.s[1].w) * v14);
      let v17 = (v15 + v16);
      acc = acc + v17;
    }
    if (valid) { out0[g] = acc; }
}
