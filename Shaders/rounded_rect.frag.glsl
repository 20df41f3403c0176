#version 300 es
// A solid color inside a rounded rect, a border ring, or a blurred rounded
// rect (a shadow), clipped by an ancestor's rounded bounds (shape.glsl).
precision highp float;

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#include "edge_coverage.glsl"
#include "shape.glsl"

void main() {
  o_color = v_color * (effectCoverage() * edgeCoverage(v_edges * gl_FragCoord.w));
}
