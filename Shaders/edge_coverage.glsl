// Included by the fragment shaders (the renderer splices it in). Edge
// antialiasing without multisampling: v_edges holds the pixel's signed
// distances, in screen pixels, to the four projected edges of the layer's
// rect (positive inside). The CPU computes them per vertex; a distance to a
// straight line is affine in screen space, so interpolating them linearly in
// screen space makes them exact under any transform, perspective included.
// GLSL ES 3.0 has no `noperspective`: the vertex shader multiplies them by
// w, and perspective-correct interpolation of d·w, times gl_FragCoord.w
// (the screen-linear 1/w), gives back the screen-linear d. A pixel whose
// center lies half a pixel inside every edge is fully covered.
float edgeCoverage(vec4 edges) {
  vec4 coverage = clamp(edges + 0.5, 0.0, 1.0);
  return coverage.x * coverage.y * coverage.z * coverage.w;
}
