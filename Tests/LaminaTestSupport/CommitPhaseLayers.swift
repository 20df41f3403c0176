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

/// A `LayoutRow` (32×8 points, its blue item placed by layout) and a white
/// `DisplayFlash` (8×8 points, below it), marked for layout and display,
/// added to `root` as layer code would add them.
@discardableResult
public func addCommitProbes(to root: CALayer) -> (LayoutRow, DisplayFlash) {
  let row = LayoutRow()
  row.frame = CGRect(x: 0, y: 0, width: 32, height: 8)
  row.item.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
  row.addSublayer(row.item)
  row.setNeedsLayout()
  let flash = DisplayFlash()
  flash.frame = CGRect(x: 0, y: 8, width: 8, height: 8)
  flash.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
  flash.setNeedsDisplay()
  root.addSublayer(row)
  root.addSublayer(flash)
  return (row, flash)
}
