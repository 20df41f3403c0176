import Foundation
import Lamina

/// A layer that places its sublayer `item` (8×8 points) at its right edge
/// in `layoutSublayers()`, for tests of the commit's layout phase.
public final class LayoutRow: CALayer {
  public let item = CALayer()
  public override func layoutSublayers() {
    item.frame = CGRect(x: bounds.width - 8, y: 0, width: 8, height: 8)
  }
}

/// A layer whose `display()` adds a red `backgroundColor` animation (100 s,
/// kept when done), as layer code on iOS does, for tests of the commit's
/// display phase.
public final class DisplayFlash: CALayer {
  public override func display() {
    let flash = CABasicAnimation(keyPath: "backgroundColor")
    flash.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    flash.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    flash.duration = 100
    flash.isRemovedOnCompletion = false
    add(flash, forKey: "flash")
  }
}
