import Foundation
import Lamina
import LaminaFrame

/// The plan as text: a header, one line per pass and one per batch, e.g.
///
///     plan 200x100: 3 passes, 3 batches, 3 targets (peak 2 offscreen, 63 KiB)
///     pass 0: draw T1 90x90 pooled, region [5, 5, 90x90], clear 0 0 0 0 — group 1 …
///       batch 0: image image1 64x64 linear, 2 items, 12 indices
///     pass 1: draw T0 200x100 canvas, region [0, 0, 200x100], clear 1 1 1 1 — canvas tile …; frees T1
///       batch 0: image T1 nearest, 1 item, 6 indices
///     pass 2: output T0 [0, 0, 200x100] as tile [0, 0, 200x100]
///
/// Images are numbered in the order the plan first draws them, so that the
/// text of a frame is the same from run to run.
extension FramePlan {
  public var description: String {
    func count(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
    var lines = [
      "plan \(width)x\(height): \(count(passCount, "pass", "passes")), "
        + "\(count(batchCount, "batch", "batches")), \(count(targets.count, "target", "targets"))"
        + " (peak \(peakOffscreenTargets) offscreen, \(Self.kibibytes(peakOffscreenBytes)))"
    ]
    for (i, step) in steps.enumerated() {
      var line = "pass \(i): " + describe(step)
      if i < releases.count, !releases[i].isEmpty {
        line += "; frees " + releases[i].map(\.description).joined(separator: " ")
      }
      lines.append(line)
      if case .draw(let pass) = step {
        for (j, batch) in pass.batches.enumerated() {
          lines.append("  batch \(j): " + describe(batch))
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Why the plan's batches began, most common first:
  /// `batches by why each began: pass 2, overlap 1` (`BatchBreak`).
  public var breakSummary: String {
    var counts: [BatchBreak: Int] = [:]
    for step in steps {
      guard case .draw(let pass) = step else { continue }
      for batch in pass.batches { counts[batch.breakReason, default: 0] += 1 }
    }
    let listed = BatchBreak.allCases.filter { counts[$0] != nil }
      .sorted { counts[$0]! > counts[$1]! }
      .map { "\($0.rawValue) \(counts[$0]!)" }
    return "batches by why each began: " + (listed.isEmpty ? "none" : listed.joined(separator: ", "))
  }

  private static func kibibytes(_ bytes: Int) -> String {
    bytes >= 10 << 20 ? "\(bytes >> 20) MiB" : "\((bytes + 1023) >> 10) KiB"
  }

  private static func number(_ value: Float) -> String { String(format: "%.3g", Double(value)) }

  /// `T3 90x90 pooled`.
  private func written(_ id: TargetID) -> String {
    let t = targets[id.index]
    let role: String
    switch t.role {
    case .canvas: role = "canvas"
    case .pooled: role = "pooled"
    case .cached(_, let hit): role = hit ? "cached (hit)" : "cached (new)"
    case .raster(_, let hit): role = hit ? "raster cache (hit)" : "raster cache (new)"
    case .openGLLayer: role = "CAOpenGLLayer framebuffer"
    }
    return "\(id) \(t.width)x\(t.height) \(role)"
  }

  private func describe(_ step: PlanStep) -> String {
    switch step {
    case .draw(let pass):
      var text = "draw \(written(pass.target)), region \(pass.region), "
      text +=
        pass.clear.map {
          "clear " + [$0.x, $0.y, $0.z, $0.w].map(Self.number).joined(separator: " ")
        }
        ?? "load"
      if let viewport = pass.viewport { text += ", viewport \(viewport)" }
      if let scissor = pass.scissor { text += ", scissor \(scissor)" }
      if let (_, rect, written) = pass.upload {
        text += ", run written \(written)" + (written == rect ? "" : " of \(rect)")
        if pass.uploadReplacesClear { text += " (for the clear)" }
      }
      return text + " — \(pass.label)"
    case .copy(let copy):
      return "copy \(copy.source) \(copy.rect) to \(written(copy.destination)) — \(copy.label)"
    case .effect(let effect):
      var text = Self.describe(effect.kind) + " "
      text += effect.inputs.map(\.description).joined(separator: " + ")
      text += " \(Self.describe(effect.sampler)) to \(written(effect.output))"
      let (w, h) = (targets[effect.output.index].width, targets[effect.output.index].height)
      if effect.viewport != PixelRect(x: 0, y: 0, width: w, height: h) {
        text += ", viewport \(effect.viewport)"
      }
      if let scissor = effect.scissor { text += ", scissor \(scissor)" }
      return text
    case .openGLLayer(let step):
      return
        "CAOpenGLLayer draws into \(written(step.target)) — \(targets[step.target.index].label)"
    case .output(let output):
      return "output \(FramePlan.canvas) \(output.rect) as tile \(output.tile)"
    }
  }

  private static func describe(_ kind: EffectPass.Kind) -> String {
    switch kind {
    case .colorMatrix: return "color matrix"
    case .blur(let dx, _, let sigma): return "blur \(dx != 0 ? "x" : "y") σ=\(number(sigma))"
    case .downsample(let factor): return "downsample ×\(factor)"
    case .upsample(let factor): return "upsample ×\(factor)"
    case .blend(_, let name, _, _, _, _, let opacity):
      return "blend \(name)" + (opacity < 1 ? " at \(number(opacity))" : "")
    }
  }

  private static func describe(_ sampler: SamplerKey) -> String {
    sampler.minification == sampler.magnification
      ? sampler.minification.rawValue
      : "\(sampler.minification.rawValue)/\(sampler.magnification.rawValue)"
  }

  private func describe(_ batch: Batch) -> String {
    var parts: [String] = []
    switch batch.program {
    case .solid: parts.append("solid")
    case .image: parts.append("image")
    case .shadow: parts.append("shadow")
    case .solidBlend: parts.append("solid+blend")
    case .imageBlend: parts.append("image+blend")
    case .gradient(let kind, let blend, let corners):
      parts.append("gradient \(kind)" + (corners ? " at corners" : "") + (blend ? "+blend" : ""))
    case .effect(let v):
      var name = "effect"
      if v.shapeMode != 0 { name += " shape \(v.shapeMode)" }
      if let kind = v.gradient {
        name += " gradient \(kind)"
      } else if v.textured {
        name += " textured"
      }
      if v.clip { name += " clip" }
      if v.masked { name += v.maskMode == .alpha ? " masked" : " masked \(v.maskMode.rawValue)" }
      if v.blend { name += "+blend" }
      parts.append(name)
    case .path:
      if let path = batch.path {
        parts.append(path.paint.stroke == nil ? "path fill" : "path stroke")
        if path.clipped { parts.append("clip") }
      }
    }
    func source(_ s: TextureSource) -> String {
      switch s {
      case .image(let index):
        let image = images[index]
        return "image\(index + 1) \(image.width)x\(image.height)"
      case .target(let id): return id.description
      case .dmabuf(let frame): return "dma-buf \(frame.width)x\(frame.height)"
      }
    }
    if let texture = batch.texture {
      parts.append(source(texture) + (batch.sampler.map { " " + Self.describe($0) } ?? ""))
    }
    if let mask = batch.mask { parts.append("mask \(source(mask))") }
    switch batch.blend {
    case .sourceOver: break
    case .additive: parts.append("additive")
    case .composite(let name): parts.append(name)
    case .porterDuff(let op): parts.append(op.rawValue)
    }
    var text = parts.joined(separator: " ")
    text += ", \(batch.items) item\(batch.items == 1 ? "" : "s"), "
    if let path = batch.path, !path.oneMesh {
      text += "\(path.indexCount) indices of \(Set(path.paints.map { $0.mesh.serial }).count) meshes"
    } else {
      text += "\(batch.indexCount) indices"
      if let path = batch.path { text += " of a \(path.paint.mesh.indices.count)-index mesh" }
    }
    if let name = batch.firstLayerName { text += " (\(name))" }
    return text
  }
}
