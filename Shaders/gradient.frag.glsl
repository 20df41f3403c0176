#version 300 es
// CAGradientLayer, computed per pixel without textures. v_texcoord carries
// the pixel's position in the layer's bounds, in points from the bounds'
// origin, interpolated perspective-correctly, so the gradient is evaluated
// in the layer's own space under any transform. Colors interpolate on
// straight (un-premultiplied) components, as Core Animation does, and are
// premultiplied afterwards; the result is dithered before the 8-bit target
// quantizes it, so slow gradients do not band.
precision highp float;

const int MAX_STOPS = 16;

uniform int u_kind;        // 0 axial, 1 radial, 2 conic
uniform vec4 u_points;     // start (xy) and end (zw), points from the bounds' origin
uniform int u_count;       // number of stops, 1...MAX_STOPS
uniform vec4 u_colors[MAX_STOPS];       // straight RGBA
uniform float u_locations[MAX_STOPS];   // increasing

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#include "edge_coverage.glsl"

const float TAU = 6.283185307179586;

// Where the pixel at `p` lies along the gradient (0 at the start, 1 at the end).
float gradientPosition(vec2 p) {
  vec2 start = u_points.xy, end = u_points.zw;
  if (u_kind == 1) {
    // The ellipse through `end`, axis-aligned, radii |end - start| per axis.
    vec2 radii = abs(end - start);
    if (radii.x <= 0.0 && radii.y <= 0.0) return 1.0;
    if (radii.x <= 0.0) radii.x = radii.y;
    if (radii.y <= 0.0) radii.y = radii.x;
    return length((p - start) / radii);
  }
  if (u_kind == 2) {
    // y grows downward, so an increasing atan angle turns clockwise on screen.
    vec2 d = p - start, e = end - start;
    float angle = atan(d.y, d.x) - atan(e.y, e.x);
    return fract(angle / TAU);
  }
  vec2 axis = end - start;
  float length2 = dot(axis, axis);
  return length2 > 0.0 ? dot(p - start, axis) / length2 : 0.0;
}

// Every pixel runs the same iterations (u_count is uniform, and so is each
// index), which keeps llvmpipe's SIMD lanes together and its uniform loads
// scalar: each stop pulls the color toward itself by how far t has passed
// the previous stop within that segment (0 before it, 1 after it). A hard
// stop (equal locations) steps at once.
vec4 colorAt(float t) {
  vec4 color = u_colors[0];
  for (int i = 1; i < u_count; i++) {
    float a = u_locations[i - 1], b = u_locations[i];
    float f = b > a ? clamp((t - a) / (b - a), 0.0, 1.0) : step(a, t);
    color = mix(color, u_colors[i], f);
  }
  return color;
}

// Interleaved gradient noise: a cheap, deterministic per-pixel value in 0...1.
float noise(vec2 p) {
  return fract(52.9829189 * fract(dot(p, vec2(0.06711056, 0.00583715))));
}

void main() {
  vec4 straight = colorAt(gradientPosition(v_texcoord));
  vec4 color = vec4(straight.rgb * straight.a, straight.a) * v_color;
  // Triangular noise of ±1 step of the 8-bit target, kept premultiplied-valid.
  float dither = (noise(gl_FragCoord.xy) + noise(gl_FragCoord.yx + 17.0) - 1.0) / 255.0;
  color.rgb = clamp(color.rgb + dither, 0.0, color.a);
  o_color = color * edgeCoverage(v_edges * gl_FragCoord.w);
}
