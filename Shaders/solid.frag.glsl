#version 300 es
#ifdef BLEND_ADVANCED
#extension GL_KHR_blend_equation_advanced : require
#endif
// A solid fill: no texture fetch, the cheapest fragment llvmpipe can shade.
precision highp float;

in vec4 v_color;
in vec4 v_edges;
out vec4 o_color;
#ifdef BLEND_ADVANCED
// compositingFilter blend modes: the blend unit reads the destination.
layout(blend_support_all_equations) out;
#endif

#include "edge_coverage.glsl"

void main() {
  o_color = v_color * edgeCoverage(v_edges * gl_FragCoord.w);
}
