#version 300 es
// CAGradientLayer, axial (see gradient.glsl).
#define GRADIENT_AXIAL 1
precision highp float;
#include "edge_coverage.glsl"
#include "gradient.glsl"
