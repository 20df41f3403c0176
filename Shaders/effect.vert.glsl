#version 300 es
// The vertex format of quad.vert, plus what the effect shaders evaluate per
// fragment (shape.glsl): the position in the item's own plane, its rounded
// rect and mode, and the position in the clipping layer's plane. Varyings
// interpolate perspective-correctly: the item-plane position and the
// homogeneous clip-plane position are both linear in the item's plane.
precision highp float;

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec2 a_texcoord;
layout(location = 2) in vec4 a_color;
layout(location = 3) in vec4 a_edges;
layout(location = 4) in vec4 a_texclamp;
layout(location = 5) in vec2 a_local;
layout(location = 6) in vec4 a_shapeRect;
layout(location = 7) in vec4 a_shapeRadii;
layout(location = 8) in vec4 a_shapeParams;
layout(location = 9) in vec3 a_clipPos;
layout(location = 10) in vec4 a_clipRect;
layout(location = 11) in vec4 a_clipRadii;

uniform vec4 u_viewport;

out vec2 v_texcoord;
out vec4 v_color;
out vec4 v_edges;
flat out vec4 v_texclamp;
out vec2 v_local;
flat out vec4 v_shapeRect;
flat out vec4 v_shapeRadii;
flat out vec4 v_shapeParams;
out vec3 v_clipPos;
flat out vec4 v_clipRect;
flat out vec4 v_clipRadii;

void main() {
  gl_Position = vec4(a_position.xy * u_viewport.xy + u_viewport.zw * a_position.z,
                     0.0, a_position.z);
  v_texcoord = a_texcoord;
  v_color = a_color;
  v_edges = a_edges * a_position.z;
  v_texclamp = a_texclamp;
  v_local = a_local;
  v_shapeRect = a_shapeRect;
  v_shapeRadii = a_shapeRadii;
  v_shapeParams = a_shapeParams;
  v_clipPos = a_clipPos;
  v_clipRect = a_clipRect;
  v_clipRadii = a_clipRadii;
}
