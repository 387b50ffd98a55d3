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
    for (var i: u32 = gid.x; i < params.h[0].x; i = i + nwg.x * 256u) {
      let v1 = select(params.s[0].x + f64(i) * params.s[0].z, params.s[0].y, i == 999u);
      let v2 = f32(v1);
      let v3 = sin(v2);
      let v4 = (-v2);
      let v5 = (v4 / f32(params.s[0].w));
      let v6 = exp(v5);
      let v7 = (v3 * v6);
      let v8 = (v2 / f32(params.s[1].x));
      let v9 = cos(v8);
      let v10 = (v7 * v9);
      let v11 = mf_pow_f32(v7, f32(params.s[1].z));
      let v12 = (f32(params.s[1].y) * v11);
      let v13 = (v10 + v12);
      let v14 = tanh(v13);
      let v15 = (f32(params.s[1].w) * v13);
      let v16 = (v14 + v15);
      out0[i] = v16;
    }
}
