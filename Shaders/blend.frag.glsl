#version 300 es
// A blend mode without KHR_blend_equation_advanced: the source (a layer's
// rendering, premultiplied) and a copy of what is behind it are read texel
// for texel and combined by the W3C Compositing and Blending formulas, the
// ones the KHR equations compute. Drawn with blending off over the area.
precision highp float;

uniform sampler2D s_image;     // the source, texel u_source at u_origin
uniform sampler2D s_mask;      // the backdrop copy, the same texels
uniform ivec2 u_origin;        // the area's corner in the target
uniform ivec2 u_source;        // the source's texel at u_origin
uniform int u_mode;            // CIFilter.blendModeNames order
uniform float u_opacity;
out vec4 o_color;

float lum(vec3 c) { return dot(c, vec3(0.30, 0.59, 0.11)); }

vec3 clipColor(vec3 c) {
  float l = lum(c);
  float n = min(c.r, min(c.g, c.b));
  float x = max(c.r, max(c.g, c.b));
  if (n < 0.0) c = l + (c - l) * l / (l - n);
  if (x > 1.0) c = l + (c - l) * (1.0 - l) / (x - l);
  return c;
}

vec3 setLum(vec3 c, float l) { return clipColor(c + (l - lum(c))); }

float sat(vec3 c) { return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)); }

vec3 setSat(vec3 c, float s) {
  float x = max(c.r, max(c.g, c.b));
  float n = min(c.r, min(c.g, c.b));
  return x > n ? (c - n) * s / (x - n) : vec3(0.0);
}

vec3 screen(vec3 b, vec3 s) { return b + s - b * s; }

vec3 hardLight(vec3 b, vec3 s) {
  return mix(b * 2.0 * s, screen(b, 2.0 * s - 1.0), greaterThan(s, vec3(0.5)));
}

float dodge(float b, float s) {
  if (b <= 0.0) return 0.0;
  if (s >= 1.0) return 1.0;
  return min(1.0, b / (1.0 - s));
}

float burn(float b, float s) {
  if (b >= 1.0) return 1.0;
  if (s <= 0.0) return 0.0;
  return 1.0 - min(1.0, (1.0 - b) / s);
}

float softLight(float b, float s) {
  if (s <= 0.5) return b - (1.0 - 2.0 * s) * b * (1.0 - b);
  float d = b <= 0.25 ? ((16.0 * b - 12.0) * b + 4.0) * b : sqrt(b);
  return b + (2.0 * s - 1.0) * (d - b);
}

vec3 blend(vec3 b, vec3 s) {
  switch (u_mode) {
  case 0: return b * s;
  case 1: return screen(b, s);
  case 2: return hardLight(s, b);
  case 3: return min(b, s);
  case 4: return max(b, s);
  case 5: return vec3(dodge(b.r, s.r), dodge(b.g, s.g), dodge(b.b, s.b));
  case 6: return vec3(burn(b.r, s.r), burn(b.g, s.g), burn(b.b, s.b));
  case 7: return hardLight(b, s);
  case 8: return vec3(softLight(b.r, s.r), softLight(b.g, s.g), softLight(b.b, s.b));
  case 9: return abs(b - s);
  case 10: return b + s - 2.0 * b * s;
  case 11: return setLum(setSat(s, sat(b)), lum(b));
  case 12: return setLum(setSat(b, sat(s)), lum(b));
  case 13: return setLum(s, lum(b));
  default: return setLum(b, lum(s));
  }
}

void main() {
  ivec2 t = ivec2(gl_FragCoord.xy) - u_origin;
  vec4 src = texelFetch(s_image, t + u_source, 0) * u_opacity;
  vec4 dst = texelFetch(s_mask, t, 0);
  vec3 cs = src.a > 0.0 ? src.rgb / src.a : vec3(0.0);
  vec3 cb = dst.a > 0.0 ? dst.rgb / dst.a : vec3(0.0);
  vec3 mixed = clamp(blend(cb, cs), 0.0, 1.0);
  o_color = vec4(
    src.rgb * (1.0 - dst.a) + dst.rgb * (1.0 - src.a) + src.a * dst.a * mixed,
    src.a + dst.a - src.a * dst.a);
}
