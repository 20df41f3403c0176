// Included by gradient_axial/radial/conic.frag.glsl, each of which defines
// its GRADIENT_* kind: llvmpipe evaluates both sides of a branch, even a
// uniform one, so one program per kind saves the others' math (atan above
// all). CAGradientLayer, computed per pixel without textures. v_texcoord
// carries the pixel's position in the layer's bounds, in points from the
// bounds' origin, interpolated perspective-correctly, so the gradient is
// evaluated in the layer's own space under any transform. Colors
// interpolate on straight (un-premultiplied) components, as Core Animation
// does, and are premultiplied afterwards; the result is dithered before the
// 8-bit target quantizes it, so slow gradients do not band.
const int MAX_STOPS = 16;

// Per kind, computed on the CPU (GradientPaint.parameters):
//   axial:  (a, b, c, 0): t = a*x + b*y + c, the projection on start-end;
//   radial: (cx, cy, 1/rx, 1/ry): t = length((p - center) / radii);
//   conic:  (cx, cy, a0, 0): t = fract(angle(p - center) / TAU - a0), where
//           a0 is the angle of the end point in turns.
uniform vec4 u_params;
uniform int u_count;       // number of stops, 1...MAX_STOPS
uniform vec4 u_colors[MAX_STOPS];       // straight RGBA
uniform float u_locations[MAX_STOPS];   // increasing

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

const float TAU = 6.283185307179586;

// Where the pixel at `p` lies along the gradient (0 at the start, 1 at the end).
float gradientPosition(vec2 p) {
#if defined(GRADIENT_RADIAL)
  return length((p - u_params.xy) * u_params.zw);
#elif defined(GRADIENT_CONIC)
  // y grows downward, so an increasing atan angle turns clockwise on screen.
  vec2 d = p - u_params.xy;
  return fract(atan(d.y, d.x) / TAU - u_params.z);
#else
  return dot(p, u_params.xy) + u_params.z;
#endif
}

// Each stop pulls the color toward itself by how far t has passed the
// previous stop within that segment (0 before it, 1 after it); a hard stop
// (equal locations) steps at once. The renderer compiles a variant per stop
// count (STOP_COUNT): with a constant bound the loop unrolls and the array
// indices become constants, which llvmpipe runs about 2.5 times faster than
// indexing uniform arrays per pixel. Without it, u_count bounds the loop.
vec4 colorAt(float t) {
  vec4 color = u_colors[0];
#ifdef STOP_COUNT
  for (int i = 1; i < STOP_COUNT; i++) {
#else
  for (int i = 1; i < u_count; i++) {
#endif
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

// The target's corner in canvas pixels: the noise follows the canvas, so a
// region drawn on its own (a tile, a damaged rect) gets the same pixels.
uniform vec2 u_canvasOrigin;

void main() {
  vec4 straight = colorAt(gradientPosition(v_texcoord));
  vec4 color = vec4(straight.rgb * straight.a, straight.a) * v_color;
  // Triangular noise of ±1 step of the 8-bit target, kept premultiplied-valid.
  vec2 p = gl_FragCoord.xy + u_canvasOrigin;
  float dither = (noise(p) + noise(p.yx + 17.0) - 1.0) / 255.0;
  color.rgb = clamp(color.rgb + dither, 0.0, color.a);
  o_color = color * edgeCoverage(v_edges * gl_FragCoord.w);
}
