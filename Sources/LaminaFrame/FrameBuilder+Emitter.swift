import Foundation
import Lamina

extension FrameBuilder {
  /// The particles of an emitter at the builder's time, each a small quad of
  /// its cell's image, turned by its spin and tinted by its color, flattened
  /// into the emitter layer's plane. All particles of one image batch into
  /// one draw.
  mutating func appendParticles(
    _ emitter: CAEmitterLayer, toTarget: CATransform3D, into commands: inout [DrawCommand]
  ) {
    let particles = EmitterSimulation.particles(of: emitter, at: time)
    guard !particles.isEmpty else { return }
    let blend: BlendMode = emitter.renderMode == .additive ? .additive : .sourceOver
    for particle in particles {
      let cell = particle.cell
      let sampler = SamplerKey(
        minification: cell.minificationFilter, magnification: cell.magnificationFilter)
      let w = particle.size.width
      let h = particle.size.height
      let rect = CGRect(x: -w / 2, y: -h / 2, width: w, height: h)
      // Turn about the particle's center, then move it to its position.
      var placement = CATransform3DMakeRotation(CGFloat(particle.rotation), 0, 0, 1)
      placement.m41 = CGFloat(particle.position.x)
      placement.m42 = CGFloat(particle.position.y)
      let c = particle.color
      let color = SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w)
      let r = cell.contentsRect
      let toParticle = placement.concatenating(toTarget)
      // One drawn at one texel a pixel takes the magnification filter alone.
      let texels = SIMD2(
        Double(abs(r.width)) * Double(particle.image.width) / Double(w),
        Double(abs(r.height)) * Double(particle.image.height) / Double(h))
      guard
        var item = makeItem(
          .image(particle.image, sampler.resolved(texelsPerPoint: texels, through: toParticle)),
          rect: rect, uv: (Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY)),
          toTarget: toParticle, color: color, name: cell.name)
      else { continue }
      item.blend = blend
      commands.append(.item(item))
    }
  }
}
