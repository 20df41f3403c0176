import Foundation
import Lamina

/// How an image is sampled: Core Animation's filters per direction.
package struct SamplerKey: Hashable, Sendable {
  package var minification: CALayerContentsFilter
  package var magnification: CALayerContentsFilter

  package init(minification: CALayerContentsFilter, magnification: CALayerContentsFilter) {
    self.minification = minification
    self.magnification = magnification
  }
}
