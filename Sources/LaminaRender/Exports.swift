// What `import LaminaRender` gives a user: the facade (`Renderer`) and the
// public values of the stages it returns or takes: the draw list and its
// statistics (LaminaFrame), the GPU context and its information (LaminaGL),
// and rendered images and output files (LaminaOutput). The plan stage has
// no public API: its types are `package`.
@_exported import LaminaFrame
@_exported import LaminaGL
@_exported import LaminaOutput
