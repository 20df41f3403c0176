// CAGradientLayer's color at a point, for gradient.frag and the GRADIENT
// variants of effect.frag; the includer defines its kind (GRADIENT_RADIAL,
// GRADIENT_CONIC, else axial): llvmpipe evaluates both sides of a branch,
// even a uniform one, so one program per kind saves the others' math (atan
// above all). The point is in the layer's bounds, in points from the bounds'
// origin (v_texcoord, interpolated perspective-correctly), so the gradient
// is evaluated in the layer's own space under any transform. The stops are
// a ramp texture the renderer writes once per distinct stops
// (GradientPaint.rampTexels: straight colors interpolated as Core Animation
// does, then premultiplied), so a pixel costs one sample, whatever the stop
// count. The result is dithered before the 8-bit target quantizes it, so
// slow gradients do not band.

// Per kind, computed on the CPU (GradientPaint.parameters):
//   axial:  (a, b, c, 0): t = a*x + b*y + c, the projection on start-end;
//   radial: (cx, cy, 1/rx, 1/ry): t = length((p - center) / radii);
//   focal:  as radial, and u_focal, the focal point f in radii from the
//           center: t is where p lies from f (0) to the unit circle (1)
//           along the ray from f through p, in the space of the radii.
//   conic:  (cx, cy, a0, 0): t = fract(angle(p - center) / TAU - a0), where
//           a0 is the angle of the end point in turns.
uniform vec4 u_params;
#if defined(GRADIENT_FOCAL)
uniform vec2 u_focal;
#endif
#if defined(GRADIENT_AT_CORNERS)
// Where in the pixel the color is taken, in target pixels from its center
// (y down): the top-left corner (-0.5, -0.5)
// (CAGradientLayer.samplesAtPixelCorners, After Effects' raster; a variant
// of its own: llvmpipe would pay the shift on every gradient's pixels).
uniform vec2 u_sampleShift;
// quad.vert's pixels-to-clip scale: its signs say which way the target's
// x and y run in the framebuffer, where dFdx and dFdy step.
uniform vec4 u_viewport;
#endif
// Where t lands on the ramp: u = t * u_ramp.x + u_ramp.y puts the span's
// ends (GradientPaint.span) on the centers of the first and last texels.
uniform vec2 u_ramp;
uniform sampler2D s_ramp;
// The target's corner in canvas pixels: the noise follows the canvas, so a
// region drawn on its own (a tile, a damaged rect) gets the same pixels.
uniform vec2 u_canvasOrigin;

const float TAU = 6.283185307179586;
// Places along a conic gradient this close below 1 are on its seam
// (GradientShader.conicSeam on the CPU).
const float CONIC_SEAM = 0.99999;

// Where the pixel at `p` lies along the gradient (0 at the start, 1 at the end).
float gradientPosition(vec2 p) {
#if defined(GRADIENT_RADIAL)
  return length((p - u_params.xy) * u_params.zw);
#elif defined(GRADIENT_FOCAL)
  // p = f + (q - f) t with |q| = 1: the positive root of
  // (1 - |f|²) t² - 2 (f·d) t - |d|² = 0, d = p - f (|f| < 1 on the CPU).
  vec2 d = (p - u_params.xy) * u_params.zw - u_focal;
  float fd = dot(u_focal, d);
  float k = 1.0 - dot(u_focal, u_focal);
  return (fd + sqrt(fd * fd + dot(d, d) * k)) / k;
#elif defined(GRADIENT_CONIC)
  // y grows downward, so an increasing atan angle turns clockwise on screen.
  vec2 d = p - u_params.xy;
  // A pixel on the seam (the end point's direction from the center) takes
  // the start of the ramp, whichever side of it rounding put the angle: a
  // center on a pixel column left the column's colors to the last bit of
  // the coordinates (the first stop drawn directly, the last inside a
  // rasterized layer: the metamorphic finding alone seed 5751103).
  float t = fract(atan(d.y, d.x) / TAU - u_params.z);
  return t > CONIC_SEAM ? 0.0 : t;
#else
  return dot(p, u_params.xy) + u_params.z;
#endif
}

// The premultiplied color at `p` (the sampler clamps beyond the span).
vec4 gradientColor(vec2 p) {
#if defined(GRADIENT_AT_CORNERS)
  vec2 shift = u_sampleShift * sign(u_viewport.xy);
  p += dFdx(p) * shift.x + dFdy(p) * shift.y;
#endif
  float u = gradientPosition(p) * u_ramp.x + u_ramp.y;
  return texture(s_ramp, vec2(u, 0.5));
}

// Interleaved gradient noise: a cheap, deterministic per-pixel value in 0...1.
float noise(vec2 p) {
  return fract(52.9829189 * fract(dot(p, vec2(0.06711056, 0.00583715))));
}

// Triangular noise of ±1 step of the 8-bit target, kept premultiplied-valid.
vec4 dithered(vec4 color) {
  vec2 p = gl_FragCoord.xy + u_canvasOrigin;
  float dither = (noise(p) + noise(p.yx + 17.0) - 1.0) / 255.0;
  return vec4(clamp(color.rgb + dither, 0.0, color.a), color.a);
}
