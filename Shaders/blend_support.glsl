// Included first (right after #version and the defines) by the programs that
// draw layers: with BLEND_ADVANCED they declare the advanced blend
// equations, so a compositingFilter blend mode is done by the blend unit,
// which reads the destination (KHR_blend_equation_advanced).
#ifdef BLEND_ADVANCED
#extension GL_KHR_blend_equation_advanced : require
layout(blend_support_all_equations) out;
#endif
