#version 300 es
#include "blend_support.glsl"
// Composites an offscreen group through its mask: the mask layer's
// rendering, drawn over the same pixels, multiplies by its alpha (and the
// group's clip, when compiled with CLIP). MASK_MODE (CALayer.maskMode): 0
// the mask's alpha, 1 one minus it, 2 its luminance (the Rec. 709 luma of
// the un-premultiplied color times alpha: of the premultiplied color, the
// luma itself), 3 one minus that.
precision highp float;

uniform sampler2D s_image;
uniform sampler2D s_mask;

in vec2 v_texcoord;
in vec4 v_color;
in vec4 v_edges;
flat in vec4 v_texclamp;
out vec4 o_color;

#define SHAPE_MODE 0
#include "shape.glsl"
#include "triangles_only.glsl"

#ifndef MASK_MODE
#define MASK_MODE 0
#endif

float maskValue(vec4 m) {
#if MASK_MODE == 0
  return m.a;
#elif MASK_MODE == 1
  return 1.0 - m.a;
#elif MASK_MODE == 2
  return clamp(dot(m.rgb, vec3(0.2126, 0.7152, 0.0722)), 0.0, 1.0);
#else
  return 1.0 - clamp(dot(m.rgb, vec3(0.2126, 0.7152, 0.0722)), 0.0, 1.0);
#endif
}

void main() {
  o_color = drawnAsTriangles(
      texture(s_image, v_texcoord) * (maskValue(texture(s_mask, v_texcoord)) * effectCoverage()) * v_color);
}
