import Foundation
import Lamina

/// How an image is sampled: Core Animation's filters per direction.
public struct SamplerKey: Hashable, Sendable {
  public var minification: CALayerContentsFilter
  public var magnification: CALayerContentsFilter

  package init(minification: CALayerContentsFilter, magnification: CALayerContentsFilter) {
    self.minification = minification
    self.magnification = magnification
  }
}
