// Included by the path vertex shaders (path_fill.vert, path_stroke.vert).
// A path's vertices stay in the layer's own plane, in a buffer kept across
// frames; u_matrix is the item's plane-to-target homography (the plane's
// (x, y, 1) to homogeneous target pixels (X, Y, W)), set per draw. Pieces
// grow by a number of screen pixels (antialiasing margins): the vertex
// shader turns pixels into points at each vertex through the homography.

uniform vec4 u_viewport;  // xy: pixels-to-clip scale, zw: clip offset (times w)
uniform mat3 u_matrix;
#ifdef CLIP
uniform mat3 u_clipMatrix;  // the plane's (x, y, 1) to the clipping layer's plane
uniform vec4 u_clipRect;
uniform vec4 u_clipRadii;
out vec3 v_clipPos;
flat out vec4 v_clipRect;
flat out vec4 v_clipRadii;
#endif
out vec2 v_local;

// Points of the plane per screen pixel at p in the direction that shrinks
// most on screen (one over the smallest singular value of the projection's
// Jacobian), so that growing a piece by that many points per pixel moves
// its edges at least that many pixels on screen under any transform. The
// growth is capped at a quarter of the largest stretch's, so that a plane
// seen edge-on does not grow its pieces across the screen.
float pointsPerPixel(vec2 p) {
  vec3 h = u_matrix * vec3(p, 1.0);
  if (h.z <= 1e-6) return 0.0;  // behind the eye: the GPU clips it away
  vec2 q = h.xy / h.z;
  vec2 jx = (u_matrix[0].xy - q * u_matrix[0].z) / h.z;
  vec2 jy = (u_matrix[1].xy - q * u_matrix[1].z) / h.z;
  float a = dot(jx, jx);
  float b = dot(jx, jy);
  float c = dot(jy, jy);
  float m = 0.5 * (a + c);
  float d = sqrt(max(m * m - (a * c - b * b), 0.0));
  float smallest = sqrt(max(m - d, 0.0));
  float largest = sqrt(m + d);
  return 1.0 / max(max(smallest, 0.25 * largest), 1e-6);
}

// Puts the vertex at p of the plane, and sets what every path fragment reads.
void place(vec2 p) {
  vec3 h = u_matrix * vec3(p, 1.0);
  gl_Position = vec4(h.xy * u_viewport.xy + u_viewport.zw * h.z, 0.0, h.z);
  v_local = p;
#ifdef CLIP
  v_clipPos = u_clipMatrix * vec3(p, 1.0);
  v_clipRect = u_clipRect;
  v_clipRadii = u_clipRadii;
#endif
}
