#version 300 es
// Every layer quad arrives already transformed on the CPU into homogeneous
// target-pixel coordinates (x, y, w): the full 4x4 chain of a layer (anchor,
// transform, sublayerTransform perspective, flattening) collapses to a plane
// homography, so one vertex format serves every layer and every draw batches.
// Keeping w lets the GPU interpolate perspective-correctly.
precision highp float;

layout(location = 0) in vec3 a_position;  // target pixels, homogeneous (x, y, w)
layout(location = 1) in vec2 a_texcoord;  // texture coordinates (image draws)
layout(location = 2) in vec4 a_color;     // premultiplied color times opacity
layout(location = 3) in vec4 a_edges;     // screen-pixel distances to the four edges (positive inside)
layout(location = 4) in vec4 a_texclamp;  // texture coordinates' min (xy) and max (zw)

uniform vec4 u_viewport;  // xy: pixels-to-clip scale, zw: clip offset (times w)

out vec2 v_texcoord;
out vec4 v_color;
out vec4 v_edges;  // times w: see edge_coverage.glsl
flat out vec4 v_texclamp;

void main() {
  gl_Position = vec4(a_position.xy * u_viewport.xy + u_viewport.zw * a_position.z,
                     0.0, a_position.z);
  v_texcoord = a_texcoord;
  v_color = a_color;
  v_edges = a_edges * a_position.z;
  v_texclamp = a_texclamp;
}
