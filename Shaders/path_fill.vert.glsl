#version 300 es
// A path's fill (see FillTessellator.swift): ribbon quads around the
// filled region's boundary, carrying the lines of their edge and of its
// neighbours, and interior trapezoids. Both grow by pixels (a_extrude) in
// the vertex shader, so one mesh serves every scale and transform.
precision highp float;
precision highp int;

layout(location = 0) in vec2 a_position;  // the plane's points
layout(location = 1) in vec2 a_extrude;   // growth, in pixels, along this direction
layout(location = 2) in vec4 a_own;       // the edge's line (a, b, c), unit normal inward
layout(location = 3) in vec4 a_prev;      // the previous edge's line, w: corner weight
layout(location = 4) in vec4 a_next;      // the next edge's line, w: corner weight

#include "path_vertex.glsl"

out vec3 v_dist;  // distances (points) to the three lines: affine in the plane
flat out vec2 v_weights;

void main() {
  vec2 p = a_position + a_extrude * pointsPerPixel(a_position);
  place(p);
  v_dist = vec3(dot(a_own.xy, p) + a_own.z, dot(a_prev.xy, p) + a_prev.z,
                dot(a_next.xy, p) + a_next.z);
  v_weights = vec2(a_prev.w, a_next.w);
}
