#version 300 es
// solid.frag for batches of exact rects (VertexBuilder.exactCorners): edge
// coverage is 1 wherever they draw, so the color alone. Nothing else on
// purpose: llvmpipe's linear rasterizer runs a fragment shader only when
// it reads varyings, multiplies and samples, all in high precision (a
// mediump value is lowered to 16 bits, whose conversions it does not
// take), and draws an axis-aligned quad of such a shader into a BGRA target
// 3-4 times faster than its general path, with the same bytes.
precision highp float;

in highp vec4 v_color;
out highp vec4 o_color;

void main() {
  o_color = v_color;
}
