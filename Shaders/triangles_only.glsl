// Included by the programs that draw quads with more than a color or a
// texel copy; the includer declares `flat in vec4 v_texclamp` (quad.vert
// and effect.vert write it). llvmpipe (Mesa 22.3) finds the two triangles
// of an axis-aligned quad in a BGRA target without a depth attachment and
// draws them as a rect, its inputs interpolated from the rect's corners
// rather than the triangles': the last bits differ, so a layer's pixels
// would depend on the target's format and on whether a path had given it
// a depth buffer yet (first frame against later ones: metamorphic seed
// 80). It never does so for a program that reads a flat input: this reads
// one, leaving the color as it is (a premultiplied color is never below
// 0, and min(x, 0) never above it). The plain programs (solid_plain,
// image_plain) leave it out: a rect gives them the same bytes.
vec4 drawnAsTriangles(vec4 color) {
  return max(color, vec4(min(v_texclamp.x, 0.0)));
}
