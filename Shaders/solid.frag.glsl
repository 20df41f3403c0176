#version 300 es
#include "blend_support.glsl"
// A solid fill: no texture fetch, the cheapest fragment llvmpipe can shade.
precision highp float;

in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#include "edge_coverage.glsl"
#include "triangles_only.glsl"

void main() {
  o_color = drawnAsTriangles(v_color * edgeCoverage(v_edges * gl_FragCoord.w));
}
