#version 300 es
// Scales a target downsampled by u_factor back to full size, bilinearly:
// full-size pixel centers fall at (x + 0.5) / u_factor small texels.
precision highp float;

uniform sampler2D s_image;
uniform float u_factor;
out vec4 o_color;

void main() {
  o_color = texture(s_image, gl_FragCoord.xy / (u_factor * vec2(textureSize(s_image, 0))));
}
