#version 300 es
// Shows the retained canvas in a window's (or a KMS scanout's) buffer:
// each buffer pixel is mapped back through the placement (bottom-up buffer
// rows to top-down panel rows, the --rotate turn, the letterbox offset) to
// one canvas texel. Turns by quarters map pixel centers onto pixel
// centers, so nothing is resampled. Outside the canvas: u_letterbox.
// u_tint (premultiplied) is laid over what is shown: --show-damage.
precision highp float;

uniform sampler2D s_image;
uniform mat3 u_bufferToCanvas;
uniform vec4 u_letterbox;
uniform vec4 u_tint;
out vec4 o_color;

void main() {
  vec2 p = (u_bufferToCanvas * vec3(gl_FragCoord.xy, 1.0)).xy;
  ivec2 texel = ivec2(floor(p));
  ivec2 size = textureSize(s_image, 0);
  vec4 color = u_letterbox;
  if (all(greaterThanEqual(texel, ivec2(0))) && all(lessThan(texel, size))) {
    color = texelFetch(s_image, texel, 0);
  }
  color = color * (1.0 - u_tint.a) + u_tint;
  // The buffer is shown opaque: what a transparent canvas lets through is black.
  o_color = vec4(color.rgb, 1.0);
}
