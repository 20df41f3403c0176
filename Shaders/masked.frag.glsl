#version 300 es
#ifdef BLEND_ADVANCED
#extension GL_KHR_blend_equation_advanced : require
#endif
// Composites an offscreen group through its mask: the mask layer's
// rendering, drawn over the same pixels, multiplies by its alpha (and the
// group's clip, when compiled with CLIP).
precision highp float;

uniform sampler2D s_image;
uniform sampler2D s_mask;

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;
#ifdef BLEND_ADVANCED
// compositingFilter blend modes: the blend unit reads the destination.
layout(blend_support_all_equations) out;
#endif

#define SHAPE_MODE 0
#include "shape.glsl"

void main() {
  o_color = texture(s_image, v_texcoord) * (texture(s_mask, v_texcoord).a * effectCoverage()) * v_color;
}
