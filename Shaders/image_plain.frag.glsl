#version 300 es
// image.frag for batches that show their image texel for texel
// (VertexBuilder.copiesTexels): untinted, no edge coverage, no clamp (the
// pixels' centers are the texels'). As solid_plain.frag, for llvmpipe's
// linear rasterizer, which then copies the texels of a BGRA texture (a
// multiplication by the color is not for it: Mesa 22.3's linear path
// draws texture × varying wrong).
precision highp float;

uniform highp sampler2D s_image;

in highp vec2 v_texcoord;
out highp vec4 o_color;

void main() {
  o_color = texture(s_image, v_texcoord);
}
