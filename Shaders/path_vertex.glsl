// Included by the path vertex shaders (path_fill.vert, path_stroke.vert).
// A path's vertices stay in the layer's own plane, in a buffer kept across
// frames; what places them comes per instance (one instance per item, a
// draw instancing the items that share a mesh): the item's plane-to-target
// homography (the plane's (x, y, 1) to homogeneous target pixels (X, Y, W),
// columns in i_matrix0..2.xyz), its premultiplied color, and its depth
// level (i_matrix0.w): items take increasing levels, and the depth test
// (greater) lets each pixel be drawn once per item, later items over
// earlier ones. The fragments write the level itself (gl_FragDepth): the
// interpolated z of two pieces of one item under a perspective differs in
// its last bits, which let a second piece paint a pixel again. A draw whose
// items are all affine (w = 1 at every vertex: z is the same at every
// vertex of an item, and its plane's slope exactly zero) leaves the depth
// to the vertices (AFFINE_DEPTH): the rasterizer then tests depth before
// shading, where the level written by the fragment forces the test after. Pieces grow by a number of screen pixels (antialiasing
// margins): the vertex shader turns pixels into points at each vertex.

layout(location = 8) in vec4 i_matrix0;
layout(location = 9) in vec4 i_matrix1;
layout(location = 10) in vec4 i_matrix2;
layout(location = 11) in vec4 i_color;

uniform vec4 u_viewport;  // xy: pixels-to-clip scale, zw: clip offset (times w)
#ifdef CLIP
#ifdef CLIP_VERTEX
// Fills of several items in one draw: each vertex carries its item's clip
// (an item without one: a rect no pixel leaves).
layout(location = 5) in vec3 a_clipMatrix0;
layout(location = 6) in vec3 a_clipMatrix1;
layout(location = 7) in vec3 a_clipMatrix2;
layout(location = 12) in vec4 a_clipRect;
layout(location = 13) in vec4 a_clipRadii;
#define u_clipMatrix mat3(a_clipMatrix0, a_clipMatrix1, a_clipMatrix2)
#define u_clipRect a_clipRect
#define u_clipRadii a_clipRadii
#else
uniform mat3 u_clipMatrix;  // the plane's (x, y, 1) to the clipping layer's plane
uniform vec4 u_clipRect;
uniform vec4 u_clipRadii;
#endif
out vec3 v_clipPos;
flat out vec4 v_clipRect;
flat out vec4 v_clipRadii;
#endif
#ifdef TEXTURE_PAINT
// A masked group's composite drawn as its mask's path (FramePlanner:
// pathMask): the group's rendering is sampled where the path covers,
// at texture coordinates of the target pixel (an affine plane: the pixel
// is linear across the piece).
uniform vec4 u_paint;  // xy: target pixels to texture coordinates scale, zw: offset
out vec2 v_paint;
#endif
#ifdef GRADIENT_PAINT
// A masked gradient's composite drawn as its mask's path with the
// gradient computed per pixel (FramePlanner: gradientMask): the plane's
// (x, y, 1) to the point of the gradient layer's bounds that gradient.glsl
// takes (both planes affine).
uniform mat3 u_gradientMatrix;
out vec2 v_gradient;
#endif
out vec2 v_local;
flat out vec4 v_color;
flat out float v_depth;

mat3 itemMatrix() { return mat3(i_matrix0.xyz, i_matrix1.xyz, i_matrix2.xyz); }

// Points of the plane per screen pixel at p in the direction that shrinks
// most on screen (one over the smallest singular value of the projection's
// Jacobian), so that growing a piece by that many points per pixel moves
// its edges at least that many pixels on screen under any transform. The
// growth is capped at a quarter of the largest stretch's, so that a plane
// seen edge-on does not grow its pieces across the screen.
float pointsPerPixel(vec2 p) {
  mat3 m = itemMatrix();
  vec3 h = m * vec3(p, 1.0);
  if (h.z <= 1e-6) return 0.0;  // behind the eye: the GPU clips it away
  vec2 q = h.xy / h.z;
  vec2 jx = (m[0].xy - q * m[0].z) / h.z;
  vec2 jy = (m[1].xy - q * m[1].z) / h.z;
  float a = dot(jx, jx);
  float b = dot(jx, jy);
  float c = dot(jy, jy);
  float mid = 0.5 * (a + c);
  float d = sqrt(max(mid * mid - (a * c - b * b), 0.0));
  float smallest = sqrt(max(mid - d, 0.0));
  float largest = sqrt(mid + d);
  return 1.0 / max(max(smallest, 0.25 * largest), 1e-6);
}

// Puts the vertex at p of the plane, at the item's depth level, and sets
// what every path fragment reads.
void place(vec2 p) {
  vec3 h = itemMatrix() * vec3(p, 1.0);
  gl_Position = vec4(h.xy * u_viewport.xy + u_viewport.zw * h.z, (2.0 * i_matrix0.w - 1.0) * h.z, h.z);
  v_local = p;
  v_color = i_color;
  v_depth = i_matrix0.w;
#ifdef TEXTURE_PAINT
  v_paint = h.xy / h.z * u_paint.xy + u_paint.zw;
#endif
#ifdef GRADIENT_PAINT
  v_gradient = (u_gradientMatrix * vec3(p, 1.0)).xy;
#endif
#ifdef CLIP
  v_clipPos = u_clipMatrix * vec3(p, 1.0);
  v_clipRect = u_clipRect;
  v_clipRadii = u_clipRadii;
#endif
}
