import Foundation
import Lamina
import LaminaDraw
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// Retained frame building: a builder that built a frame before derives
/// only the layers that changed since, and the frame it builds is the one a
/// new builder would build.
final class RetainedFrameTests: XCTestCase {
  // MARK: What is derived

  /// root → container, 120×80 and 100×60.
  func makeRootAndContainer() -> (root: CALayer, container: CALayer) {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
    root.position = CGPoint(x: 60, y: 40)
    root.name = "root"
    let container = CALayer()
    container.frame = CGRect(x: 10, y: 10, width: 100, height: 60)
    container.name = "container"
    root.addSublayer(container)
    return (root, container)
  }

  /// root → container → a, b, c (three squares).
  func makeTree() -> (root: CALayer, container: CALayer, leaves: [CALayer]) {
    let (root, container) = makeRootAndContainer()
    var leaves: [CALayer] = []
    for (i, name) in ["a", "b", "c"].enumerated() {
      let leaf = CALayer()
      leaf.frame = CGRect(x: 5 + 30 * CGFloat(i), y: 5, width: 20, height: 20)
      leaf.backgroundColor = CGColor(red: 0.2 * CGFloat(i), green: 0.5, blue: 0.8, alpha: 1)
      leaf.name = name
      container.addSublayer(leaf)
      leaves.append(leaf)
    }
    return (root, container, leaves)
  }

  func names(_ layers: [CALayer]) -> [String] { layers.map { $0.name ?? "?" } }

  /// Builds with `builder`, checks the frame against a new builder's, and
  /// returns the names of the layers derived.
  @discardableResult
  func build(
    _ builder: inout FrameBuilder, _ root: CALayer, file: StaticString = #filePath,
    line: UInt = #line
  ) -> [String] {
    let frame = builder.build(root: root, background: .white)
    var fresh = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    let expected = fresh.build(root: root, background: .white)
    XCTAssertNil(DrawListComparison.difference(frame, expected), file: file, line: line)
    XCTAssertEqual(
      frame.stats.derivedLayers, builder.lastDerivedLayers.count, file: file, line: line)
    return names(builder.lastDerivedLayers)
  }

  func testAnUnchangedTreeIsNotDerivedAgain() {
    let (root, _, _) = makeTree()
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    XCTAssertEqual(build(&builder, root), ["root", "container", "a", "b", "c"])
    let frame = builder.build(root: root, background: .white)
    XCTAssertEqual(frame.stats.derivedLayers, 0)
    XCTAssertEqual(frame.stats.reusedLayers, 1)  // the root's visit, whole
    XCTAssertEqual(frame.allItems.count, 3)
  }

  func testAnOpacityChangeDerivesOnlyThatLayerAndReassemblesItsAncestors() {
    let (root, _, leaves) = makeTree()
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    build(&builder, root)
    // The first opacity change derives the layer (and keeps its drawing
    // before opacity from then on); the next ones only apply the opacity.
    leaves[0].opacity = 0.5
    XCTAssertEqual(build(&builder, root), ["root", "container", "a"])
    leaves[0].opacity = 0.25
    XCTAssertEqual(build(&builder, root), ["root", "container"])
    // A translucent layer keeps its drawing from the start.
    leaves[1].opacity = 0.5
    XCTAssertEqual(build(&builder, root), ["root", "container", "b"])
    leaves[1].opacity = 0.25
    XCTAssertEqual(build(&builder, root), ["root", "container"])
    let frame = builder.build(root: root, background: .white)
    XCTAssertEqual(frame.stats.derivedLayers, 0)
    XCTAssertEqual(frame.allItems[0].color.w, 0.25, accuracy: 1e-6)
  }

  func testALayerFadingFrameAfterFrameIsNotDerivedAndSettlesBack() {
    let (root, _, leaves) = makeTree()
    leaves[2].opacity = 0.9
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    build(&builder, root)
    let geometry = builder.build(root: root, background: .white).allItems[2].geometryIdentity
    for step in 1...4 {
      leaves[2].opacity = 0.9 - Float(step) / 10
      XCTAssertEqual(build(&builder, root), ["root", "container"])
    }
    // The faded item is the same geometry (what a renderer keeps vertices by).
    let faded = builder.build(root: root, background: .white).allItems[2]
    XCTAssertEqual(faded.geometryIdentity, geometry)
    XCTAssertNotEqual(faded.serial, 0)
    // Still again: the whole frame is reused.
    var frame = builder.build(root: root, background: .white)
    XCTAssertEqual(frame.stats.derivedLayers + frame.stats.fadedLayers, 0)
    XCTAssertEqual(frame.allItems[2].color.w, 0.5, accuracy: 1e-6)
    // A sibling changes: the faded layer did not keep its last commands
    // while it faded, so it is faded once more (not derived), and keeps them.
    leaves[0].backgroundColor = .black
    XCTAssertEqual(build(&builder, root), ["root", "container", "a"])
    leaves[1].backgroundColor = .black
    frame = builder.build(root: root, background: .white)
    XCTAssertEqual(names(builder.lastDerivedLayers), ["root", "container", "b"])
    XCTAssertEqual(frame.stats.fadedLayers, 0)
  }

  func testATransformChangeDerivesTheWholeSubtree() {
    let (root, container, _) = makeTree()
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    build(&builder, root)
    container.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
    XCTAssertEqual(build(&builder, root), ["root", "container", "a", "b", "c"])
    // A sublayer transform reaches the sublayers too.
    var perspective = CATransform3DIdentity
    perspective.m34 = -1 / 300
    container.sublayerTransform = perspective
    XCTAssertEqual(build(&builder, root), ["root", "container", "a", "b", "c"])
    // A leaf's own transform: only the leaf.
    container.transform = CATransform3DIdentity
    build(&builder, root)
    leaves(of: container)[1].transform = CATransform3DMakeRotation(0.5, 0, 1, 0)
    XCTAssertEqual(build(&builder, root), ["root", "container", "b"])
  }

  func leaves(of container: CALayer) -> [CALayer] { container.sublayers ?? [] }

  /// Shape layers derived again for their container's motion alone place
  /// the path items their last visit made (`PathItemsMemo`): the same
  /// frame as a new builder's, counted; a layer whose own values changed,
  /// or whose flattening level did, makes its items anew.
  func testShapeLayersMovedByTheirContainerPlaceTheirKeptPathItems() {
    let (root, container) = makeRootAndContainer()
    var shapes: [CAShapeLayer] = []
    for (i, name) in ["a", "b", "c"].enumerated() {
      let shape = CAShapeLayer()
      shape.frame = CGRect(x: 5 + 30 * CGFloat(i), y: 5, width: 24, height: 24)
      shape.path = CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 20, height: 20), transform: nil)
      shape.fillColor = i == 1 ? nil : CGColor(red: 0.2, green: 0.5, blue: 0.8, alpha: 1)
      shape.strokeColor = i == 0 ? nil : CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1)
      shape.lineWidth = 3
      shape.name = name
      container.addSublayer(shape)
      shapes.append(shape)
    }
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    func placed() -> Int { builder.build(root: root, background: .white).stats.placedShapeLayers }
    // Against a new builder of the same caches (path items compare their
    // meshes by identity), returning the layers derived.
    func build(_ builder: inout FrameBuilder, _ root: CALayer, line: UInt = #line) -> [String] {
      let frame = builder.build(root: root, background: .white)
      var fresh = FrameBuilder(
        size: CGSize(width: 120, height: 80), scale: 1, caches: builder.caches)
      let expected = fresh.build(root: root, background: .white)
      XCTAssertNil(DrawListComparison.difference(frame, expected), line: line)
      return names(builder.lastDerivedLayers)
    }
    _ = build(&builder, root)
    container.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
    XCTAssertEqual(build(&builder, root), ["root", "container", "a", "b", "c"])
    container.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
    XCTAssertEqual(placed(), 3, "all three moved, none changed")
    // b's own change: b makes its items anew, the others are reused whole.
    shapes[1].lineWidth = 5
    container.transform = CATransform3DMakeRotation(0.6, 0, 0, 1)
    XCTAssertEqual(build(&builder, root), ["root", "container", "a", "b", "c"])
    shapes[1].lineWidth = 6
    container.transform = CATransform3DMakeRotation(0.7, 0, 0, 1)
    XCTAssertEqual(placed(), 2)
    shapes[2].path = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 10), transform: nil)
    container.transform = CATransform3DMakeRotation(0.8, 0, 0, 1)
    XCTAssertEqual(placed(), 2, "b kept what it made last frame; c's path changed")
    // Eight times larger: another flattening level, items made anew.
    container.transform = CATransform3DMakeScale(8, 8, 1)
    XCTAssertEqual(build(&builder, root), ["root", "container", "a", "b", "c"])
    container.transform = CATransform3DMakeScale(1, 1, 1)
    XCTAssertEqual(placed(), 0)
    container.transform = CATransform3DMakeTranslation(3, 1, 0)
    XCTAssertEqual(placed(), 3)
    container.transform = CATransform3DMakeTranslation(2, 2, 0)
    _ = build(&builder, root)
  }

  /// Plain layers (a group, a shape; the root, whose sublayer moved) are derived
  /// without the steps that do nothing for them (`derivePlain`), and give
  /// the frame a new builder gives; a layer with a shadow, a background or
  /// a mask is derived in full, and so is a plain layer whose own values
  /// changed (then plain again).
  func testPlainLayersUnderAMovedContainerGiveTheSameFrame() {
    let (root, container) = makeRootAndContainer()
    let group = CALayer()
    group.frame = CGRect(x: 4, y: 4, width: 40, height: 40)
    group.name = "group"
    let shape = CAShapeLayer()
    shape.frame = CGRect(x: 2, y: 2, width: 30, height: 30)
    shape.path = CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 24, height: 24), transform: nil)
    shape.fillColor = CGColor(red: 0.2, green: 0.5, blue: 0.8, alpha: 1)
    shape.strokeColor = CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1)
    shape.lineWidth = 2
    shape.opacity = 0.8
    shape.name = "shape"
    group.addSublayer(shape)
    container.addSublayer(group)
    let shadowed = CAShapeLayer()
    shadowed.frame = CGRect(x: 50, y: 10, width: 30, height: 30)
    shadowed.path = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20), transform: nil)
    shadowed.fillColor = CGColor(red: 0.1, green: 0.7, blue: 0.2, alpha: 1)
    shadowed.shadowOpacity = 0.5
    shadowed.shadowRadius = 2
    shadowed.name = "shadowed"
    container.addSublayer(shadowed)
    let filled = CALayer()
    filled.frame = CGRect(x: 70, y: 30, width: 20, height: 20)
    filled.backgroundColor = CGColor(red: 0.8, green: 0.8, blue: 0.1, alpha: 1)
    filled.name = "filled"
    container.addSublayer(filled)
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    func plainCount() -> Int {
      let frame = builder.build(root: root, background: .white)
      var fresh = FrameBuilder(
        size: CGSize(width: 120, height: 80), scale: 1, caches: builder.caches)
      XCTAssertNil(
        DrawListComparison.difference(frame, fresh.build(root: root, background: .white)))
      return frame.stats.plainLayers
    }
    XCTAssertEqual(plainCount(), 0, "a first frame derives everything in full")
    container.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
    XCTAssertEqual(plainCount(), 3, "the root (a sublayer moved), the group and its shape")
    container.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
    shape.opacity = 0.5
    XCTAssertEqual(plainCount(), 3, "an opacity is read anew")
    container.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
    shape.lineWidth = 4
    XCTAssertEqual(plainCount(), 2, "the shape changed: derived in full")
    container.transform = CATransform3DMakeRotation(0.6, 0, 0, 1)
    XCTAssertEqual(plainCount(), 3)
    container.transform = CATransform3DMakeRotation(0.7, 0, 0, 1)
    shape.shadowOpacity = 0.7
    XCTAssertEqual(plainCount(), 2, "a shadow now: not plain")
    container.transform = CATransform3DMakeRotation(0.8, 0, 0, 1)
    XCTAssertEqual(plainCount(), 2)
    container.transform = CATransform3DMakeRotation(0.9, 0, 0, 1)
    group.mask = CAShapeLayer()
    XCTAssertEqual(plainCount(), 1, "a mask: the group not plain, the root still")
  }

  func testAddedRemovedAndReorderedSublayers() {
    let (root, container, leaves) = makeTree()
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    build(&builder, root)
    let d = CALayer()
    d.frame = CGRect(x: 40, y: 30, width: 10, height: 10)
    d.backgroundColor = .black
    d.name = "d"
    container.addSublayer(d)
    XCTAssertEqual(build(&builder, root), ["root", "container", "d"])
    leaves[1].removeFromSuperlayer()
    XCTAssertEqual(build(&builder, root), ["root", "container"])
    // A layer put back is derived again: nodes live while their layers are drawn.
    container.insertSublayer(leaves[1], at: 0)
    XCTAssertEqual(build(&builder, root), ["root", "container", "b"])
    // Sublayers drawn in a new order are reused, only their parent reassembles them.
    container.insertSublayer(leaves[2], at: 0)
    XCTAssertEqual(build(&builder, root), ["root", "container"])
  }

  func testMaskAndFilterChanges() {
    let (root, _, leaves) = makeTree()
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    build(&builder, root)
    let mask = CALayer()
    mask.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
    mask.backgroundColor = .black
    mask.name = "mask"
    leaves[2].mask = mask
    XCTAssertEqual(build(&builder, root), ["root", "container", "c", "mask"])
    mask.position.x += 4
    XCTAssertEqual(build(&builder, root), ["root", "container", "c", "mask"])
    leaves[2].mask = nil
    XCTAssertEqual(build(&builder, root), ["root", "container", "c"])
    let blur = CIFilter(name: "CIGaussianBlur")!
    blur.setValue(2.0, forKey: "inputRadius")
    leaves[1].filters = [blur]
    XCTAssertEqual(build(&builder, root), ["root", "container", "b"])
    leaves[1].setValue(3.0, forKeyPath: "filters.CIGaussianBlur.inputRadius")
    XCTAssertEqual(build(&builder, root), ["root", "container", "b"])
    leaves[1].filters = nil
    XCTAssertEqual(build(&builder, root), ["root", "container", "b"])
  }

  func testAnimationsAddedRunningFinishedAndRemoved() {
    let (root, _, leaves) = makeTree()
    let presentation = PresentationTree(root: root)
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    func frame(at time: Double) -> [String] {
      build(&builder, presentation.update(time: time))
    }
    XCTAssertEqual(frame(at: 0).count, 5)
    XCTAssertEqual(frame(at: 0.1), [])
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0.0
    fade.toValue = 1.0
    fade.duration = 1
    leaves[1].add(fade, forKey: "fade")
    XCTAssertEqual(frame(at: 0.2), ["root", "container", "b"])
    // From then on b keeps its drawing and only its opacity is applied.
    XCTAssertEqual(frame(at: 0.3), ["root", "container"])
    XCTAssertEqual(
      builder.build(root: presentation.update(time: 0.4), background: .white)
        .stats.fadedLayers, 1)
    XCTAssertEqual(presentation.visitedLayers, 3)  // the animated layer and its ancestors
    // Ended (and removed on completion): back to the model value once,
    // then nothing changes.
    XCTAssertEqual(frame(at: 1.5), ["root", "container"])
    XCTAssertEqual(frame(at: 1.6), [])
    // Held by a fill mode: its last value, then nothing.
    let held = CABasicAnimation(keyPath: "position.x")
    held.fromValue = 10.0
    held.toValue = 20.0
    held.duration = 0.5
    held.beginTime = 1.7
    held.fillMode = .forwards
    held.isRemovedOnCompletion = false
    leaves[0].add(held, forKey: "move")
    XCTAssertEqual(frame(at: 1.8), ["root", "container", "a"])
    XCTAssertEqual(frame(at: 2.5), ["root", "container", "a"])
    XCTAssertEqual(frame(at: 2.6), [])
    leaves[0].removeAnimation(forKey: "move")
    XCTAssertEqual(frame(at: 2.7), ["root", "container", "a"])
    XCTAssertEqual(frame(at: 2.8), [])
  }

  func testLayersThatAreFunctionsOfTimeAreDerivedEveryFrame() {
    let (root, container, _) = makeTree()
    let emitter = CAEmitterLayer()
    emitter.name = "emitter"
    emitter.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
    let cell = CAEmitterCell()
    cell.birthRate = 20
    cell.lifetime = 2
    cell.velocity = 10
    cell.contents = CGImage(width: 2, height: 2, rgba: [UInt8](repeating: 255, count: 16))
    emitter.emitterCells = [cell]
    container.addSublayer(emitter)
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    for t in [0.5, 0.6, 0.7] {
      builder.time = t
      let frame = builder.build(root: root, background: .white)
      var fresh = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
      fresh.time = t
      XCTAssertNil(
        DrawListComparison.difference(frame, fresh.build(root: root, background: .white)))
      if t > 0.5 {
        XCTAssertEqual(names(builder.lastDerivedLayers), ["root", "container", "emitter"])
      }
    }
  }

  func testUnchangedItemsKeepTheirSerials() {
    let (root, _, leaves) = makeTree()
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    let first = builder.build(root: root, background: .white).allItems.map(\.serial)
    XCTAssertFalse(first.contains(0))
    XCTAssertEqual(Set(first).count, 3)
    leaves[1].backgroundColor = .black
    let second = builder.build(root: root, background: .white).allItems.map(\.serial)
    XCTAssertEqual(second[0], first[0])
    XCTAssertNotEqual(second[1], first[1])
    XCTAssertEqual(second[2], first[2])
    // An ancestor's opacity changes the items it multiplies into.
    root.sublayers?[0].opacity = 0.5
    let third = builder.build(root: root, background: .white).allItems.map(\.serial)
    XCTAssertTrue(zip(third, second).allSatisfy { $0 != $1 })
  }

  func testKeptCommandsHoldTheGlyphsAndShapesDrawnWhenTheirFrameEnded() {
    let (root, container, _) = makeTree()
    // Sizes no other test draws: their glyphs and bitmaps are new here.
    let text = CATextLayer()
    text.frame = CGRect(x: 0, y: 30, width: 100, height: 30)
    text.string = "Kept glyphs"
    text.fontSize = 13.37
    text.name = "text"
    container.addSublayer(text)
    let shape = CAShapeLayer()
    shape.frame = CGRect(x: 60, y: 0, width: 30, height: 30)
    shape.path = CGPath(ellipseIn: CGRect(x: 1, y: 1, width: 27.31, height: 21.7))
    shape.name = "shape"
    container.addSublayer(shape)
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    let first = builder.build(root: root, background: .white)
    func images(_ frame: DrawList) -> [CGImage] {
      frame.allItems.compactMap {
        if case .image(let image, _) = $0.material { return image }
        return nil
      }
    }
    XCTAssertGreaterThan(images(first).count, 5)
    XCTAssertTrue(images(first).allSatisfy { $0.width > 1 }, "a placeholder is left")
    // The next frame reuses the commands as the first frame ended (unless
    // a test running beside this one changed the shared atlas meanwhile:
    // then the text is laid out again on the atlas as it is).
    let second = builder.build(root: root, background: .white)
    XCTAssertTrue(images(second).allSatisfy { $0.width > 1 })
    if second.stats.derivedLayers == 0 {
      XCTAssertTrue(zip(images(first), images(second)).allSatisfy { $0 === $1 })
    } else {
      XCTAssertEqual(names(builder.lastDerivedLayers), ["root", "container", "text"])
    }
  }

  /// Found by the metamorphic harness (seed 143, first-frame): a frame
  /// whose walk made both a shape bitmap (the text's shadow path) and new
  /// glyphs replaced placeholders twice (in the draw list, then in the
  /// render tree's nodes) with a map keyed by object identity; the shape's
  /// placeholder was freed in between and the new atlas page took its
  /// address, so the glyphs drew the shadow's bitmap on the first frame.
  func testGlyphsAndAShadowPathNewInOneFrameKeepTheirOwnImages() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
    root.position = CGPoint(x: 60, y: 40)
    let group = CALayer()
    group.frame = CGRect(x: 10, y: 10, width: 100, height: 60)
    group.backgroundColor = CGColor(red: 0.7, green: 0.6, blue: 0.5, alpha: 1)
    group.compositingFilter = "CIOverlayBlendMode"
    root.addSublayer(group)
    let text = CATextLayer()
    text.frame = CGRect(x: 5, y: 5, width: 60, height: 20)
    text.string = "glass"
    text.fontSize = 8.731  // glyphs no other test makes
    text.shadowOpacity = 0.5
    text.shadowRadius = 3
    let shadow = CGMutablePath()
    shadow.move(to: CGPoint(x: 1.5, y: 4.5))
    shadow.addQuadCurve(to: CGPoint(x: 8.13, y: 12.5), control: CGPoint(x: 8, y: 8))
    shadow.closeSubpath()
    text.shadowPath = shadow
    group.addSublayer(text)
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    let frame = builder.build(root: root, background: .white)
    let images = frame.allItems.compactMap { item -> CGImage? in
      if case .image(let image, _) = item.material { return image }
      return nil
    }
    // The five glyphs of "glass" on an atlas page, the shadow path apart (a
    // path item drawn by the GPU, or Cairo's bitmap).
    let paths = frame.allItems.filter { if case .path = $0.material { true } else { false } }
    XCTAssertEqual(images.filter { $0.width == GlyphAtlas.side }.count, 5)
    XCTAssertEqual(images.filter { $0.width != GlyphAtlas.side }.count + paths.count, 1)
  }

  func testTenThousandLayersWithTenChangedDeriveTwelve() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)
    root.position = CGPoint(x: 500, y: 500)
    let grid = CALayer()
    grid.frame = root.bounds
    root.addSublayer(grid)
    for i in 0..<10_000 {
      let cell = CALayer()
      cell.frame = CGRect(x: CGFloat(i % 100) * 10, y: CGFloat(i / 100) * 10, width: 8, height: 8)
      cell.backgroundColor = .black
      grid.addSublayer(cell)
    }
    var builder = FrameBuilder(size: root.bounds.size, scale: 1)
    XCTAssertEqual(builder.build(root: root, background: nil).stats.derivedLayers, 10_002)
    for (i, cell) in (grid.sublayers ?? []).enumerated() where i % 1000 == 7 { cell.opacity = 0.5 }
    let frame = builder.build(root: root, background: nil)
    XCTAssertEqual(frame.stats.derivedLayers, 12)
    XCTAssertEqual(frame.stats.reusedLayers, 9_990)
    XCTAssertEqual(frame.allItems.count, 10_000)
  }

  /// A layer over many sublayers turning frame after frame does not keep
  /// a copy of its commands (nor do its ancestors) while it turns; once
  /// still, it is derived once more (its sublayers reused) and kept.
  func testALayerChangingFrameAfterFrameKeepsItsManyCommandsOnceStill() {
    let (root, container, _) = makeTree()
    for i in 0..<(RenderTree.keptCopyLimit + 8) {
      let dot = CALayer()
      dot.frame = CGRect(x: CGFloat(i % 10) * 9, y: 30 + CGFloat(i / 10) * 7, width: 6, height: 5)
      dot.backgroundColor = .black
      dot.name = "dot"
      container.addSublayer(dot)
    }
    var builder = FrameBuilder(size: CGSize(width: 120, height: 80), scale: 1)
    build(&builder, root)
    for step in 1...3 {
      container.transform = CATransform3DMakeRotation(0.1 * CGFloat(step), 0, 0, 1)
      XCTAssertEqual(build(&builder, root).count, 2 + 3 + RenderTree.keptCopyLimit + 8)
    }
    // Still: the container and the root did not keep their commands; the
    // sublayers (a command each) did.
    XCTAssertEqual(build(&builder, root), ["root", "container"])
    XCTAssertEqual(build(&builder, root), [])
  }

  // MARK: Retained = from scratch, for random trees and random changes

  func testRetainedFramesMatchFreshFramesForRandomTreesAndChanges() {
    for seed in 1...40 {
      var random = SeededRandom(seed: UInt64(seed))
      let scene = RandomLayerTree(random: &random)
      // One renderer's caches for the three builders, as a renderer's
      // frames share them.
      let caches = RenderCaches()
      var builder = FrameBuilder(size: scene.size, scale: 1, caches: caches)
      var previous: (retained: DrawList, fresh: DrawList)?
      for step in 0..<12 {
        // A first frame of the tree draws its new glyphs and shapes, so
        // that both builders below find the caches the same.
        var primer = FrameBuilder(size: scene.size, scale: 1, caches: caches)
        _ = primer.build(root: scene.root, background: .white)
        builder.time = Double(step) / 10
        let frame = builder.build(root: scene.root, background: .white)
        var fresh = FrameBuilder(size: scene.size, scale: 1, caches: caches)
        fresh.time = builder.time
        let expected = fresh.build(root: scene.root, background: .white)
        if let difference = DrawListComparison.difference(frame, expected) {
          XCTFail("seed \(seed), step \(step), after \(scene.log.last ?? "-"): \(difference)")
          break
        }
        // Damage matches what the render tree kept without hashing it: the
        // same damage as between frames built from scratch.
        if let previous {
          func rects(_ damage: Damage) -> [String] { damage.rects.map(\.description).sorted() }
          XCTAssertEqual(
            rects(Damage(from: previous.retained, to: frame)),
            rects(Damage(from: previous.fresh, to: expected)), "seed \(seed), step \(step)")
        }
        previous = (frame, expected)
        scene.change(&random)
      }
    }
  }

  func testRetainedFramesRenderTheSamePixels() throws {
    let renderer = try Renderer()
    for seed in [3, 11, 27] {
      var random = SeededRandom(seed: UInt64(seed))
      let scene = RandomLayerTree(random: &random)
      var builder = FrameBuilder(size: scene.size, scale: 1)
      for step in 0..<6 {
        let retained = try renderer.render(builder.build(root: scene.root, background: .white))
        var fresh = FrameBuilder(size: scene.size, scale: 1)
        let expected = try renderer.render(fresh.build(root: scene.root, background: .white))
        XCTAssertEqual(
          retained.premultipliedPixels, expected.premultipliedPixels, "seed \(seed) step \(step)")
        scene.change(&random)
      }
    }
  }
}

/// The emitter's counter-based generator, for a seed: the same numbers for
/// the same seed everywhere.
struct SeededRandom: RandomNumberGenerator {
  var particles: ParticleRandom
  init(seed: UInt64) {
    particles = ParticleRandom(seed: UInt32(truncatingIfNeeded: seed), cell: 0, index: seed >> 32)
  }
  mutating func next() -> UInt64 { particles.next() }
}

/// A random layer tree of every class and effect frame building knows,
/// and random changes to it, for comparing retained and fresh building.
final class RandomLayerTree {
  let size = CGSize(width: 160, height: 120)
  let root = CALayer()
  /// What each change did (for failure messages).
  private(set) var log: [String] = []
  private let image: CGImage

  init(random: inout SeededRandom) {
    var pixels: [UInt8] = []
    for i in 0..<64 { pixels += [UInt8(i * 4), UInt8(255 - i * 4), 128, i % 5 == 0 ? 0 : 255] }
    image = CGImage(width: 8, height: 8, rgba: pixels)!
    root.bounds = CGRect(origin: .zero, size: size)
    root.position = CGPoint(x: size.width / 2, y: size.height / 2)
    root.name = "root"
    for _ in 0..<Int.random(in: 2...4, using: &random) {
      root.addSublayer(makeLayer(depth: 0, &random))
    }
  }

  func makeLayer(depth: Int, _ random: inout SeededRandom) -> CALayer {
    let kind = Int.random(in: 0..<20, using: &random)
    let layer: CALayer
    switch kind {
    case 0: layer = CATransformLayer()
    case 1:
      let gradient = CAGradientLayer()
      gradient.colors = [CGColor.black, CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.7)]
      layer = gradient
    case 2:
      let shape = CAShapeLayer()
      shape.path = CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 20, height: 14))
      shape.strokeColor = .black
      shape.lineWidth = 2
      layer = shape
    case 3:
      let text = CATextLayer()
      text.string = ["Aa", "Lamina", "x y"][Int.random(in: 0..<3, using: &random)]
      text.fontSize = 12
      text.foregroundColor = .black
      layer = text
    case 4:
      let replicator = CAReplicatorLayer()
      replicator.instanceCount = Int.random(in: 1...3, using: &random)
      replicator.instanceTransform = CATransform3DMakeTranslation(12, 3, 0)
      replicator.instanceColor = CGColor(red: 1, green: 0.8, blue: 0.8, alpha: 1)
      replicator.preservesDepth = Bool.random(using: &random)
      layer = replicator
    default: layer = CALayer()
    }
    layer.name = "l\(Int.random(in: 0..<1_000_000, using: &random))"
    layer.bounds = CGRect(
      x: 0, y: 0, width: CGFloat.random(in: 10...60, using: &random),
      height: CGFloat.random(in: 10...50, using: &random))
    layer.position = CGPoint(
      x: CGFloat.random(in: 0...size.width, using: &random),
      y: CGFloat.random(in: 0...size.height, using: &random))
    for _ in 0..<Int.random(in: 1...4, using: &random) { set(layer, &random) }
    if depth < 3 {
      for _ in 0..<Int.random(in: 0...(depth == 0 ? 3 : 2), using: &random) {
        layer.addSublayer(makeLayer(depth: depth + 1, &random))
      }
    }
    return layer
  }

  /// Sets one random property of `layer` to a random value.
  func set(_ layer: CALayer, _ random: inout SeededRandom) {
    func color() -> CGColor {
      CGColor(
        red: .random(in: 0...1, using: &random), green: .random(in: 0...1, using: &random),
        blue: .random(in: 0...1, using: &random),
        alpha: [1, 0.6][Int.random(in: 0..<2, using: &random)])
    }
    let property = Int.random(in: 0..<22, using: &random)
    switch property {
    case 0: layer.backgroundColor = color()
    case 1: layer.opacity = [1, 0.5, 0.8, 0][Int.random(in: 0..<4, using: &random)]
    case 2: layer.position.x += .random(in: -20...20, using: &random)
    case 3: layer.bounds.size.width = .random(in: 4...70, using: &random)
    case 4:
      layer.transform = CATransform3DMakeRotation(.random(in: -1...1, using: &random), 0, 0, 1)
    case 5:
      layer.transform = CATransform3DMakeRotation(.random(in: -1.4...1.4, using: &random), 0, 1, 0)
    case 6:
      var p = CATransform3DIdentity
      p.m34 = -1 / CGFloat.random(in: 100...500, using: &random)
      layer.sublayerTransform = p
    case 7: layer.cornerRadius = .random(in: 0...10, using: &random)
    case 8:
      layer.borderWidth = .random(in: 0...3, using: &random)
      layer.borderColor = color()
    case 9: layer.masksToBounds.toggle()
    case 10:
      layer.shadowOpacity = [0, 0.8][Int.random(in: 0..<2, using: &random)]
      layer.shadowRadius = .random(in: 0...4, using: &random)
    case 11: layer.contents = Bool.random(using: &random) ? image : nil
    case 12: layer.zPosition = .random(in: -5...5, using: &random)
    case 13: layer.isHidden = Int.random(in: 0..<4, using: &random) == 0
    case 14:
      if Bool.random(using: &random), let blur = CIFilter(name: "CIGaussianBlur") {
        blur.setValue(Double.random(in: 0.5...3, using: &random), forKey: "inputRadius")
        layer.filters = [blur]
      } else if let invert = CIFilter(name: "CIColorInvert"), Bool.random(using: &random) {
        layer.filters = [invert]
      } else {
        layer.filters = nil
      }
    case 15:
      layer.compositingFilter = Bool.random(using: &random) ? "CIMultiplyBlendMode" : nil
    case 16:
      if layer.mask == nil {
        let mask = CAGradientLayer()
        mask.colors = [CGColor.black, CGColor(gray: 0, alpha: 0)]
        mask.frame = layer.bounds.insetBy(dx: 2, dy: 2)
        mask.name = "mask of \(layer.name ?? "")"
        layer.mask = mask
      } else {
        layer.mask = nil
      }
    case 17: layer.shouldRasterize.toggle()
    case 18: layer.isDoubleSided.toggle()
    case 19: layer.isGeometryFlipped.toggle()
    case 20: layer.anchorPoint = CGPoint(x: .random(in: 0...1, using: &random), y: 0.5)
    default:
      if let shape = layer as? CAShapeLayer {
        shape.strokeEnd = .random(in: 0.2...1, using: &random)
      } else if let gradient = layer as? CAGradientLayer {
        gradient.endPoint = CGPoint(x: .random(in: 0...1, using: &random), y: 1)
      } else if let text = layer as? CATextLayer {
        text.string = "t\(Int.random(in: 0..<50, using: &random))"
      } else if let replicator = layer as? CAReplicatorLayer {
        replicator.instanceCount = Int.random(in: 0...4, using: &random)
      } else {
        layer.backgroundColor = nil
      }
    }
  }

  /// Every layer of the tree, masks included.
  var layers: [CALayer] {
    var all: [CALayer] = []
    func walk(_ layer: CALayer) {
      all.append(layer)
      for sublayer in layer.sublayers ?? [] { walk(sublayer) }
      if let mask = layer.mask { walk(mask) }
    }
    walk(root)
    return all
  }

  /// One to three random changes: properties, sublayers added, removed or
  /// moved, or nothing.
  func change(_ random: inout SeededRandom) {
    var done: [String] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let all = layers
      let layer = all[Int.random(in: 0..<all.count, using: &random)]
      switch Int.random(in: 0..<10, using: &random) {
      case 0:
        layer.addSublayer(makeLayer(depth: 2, &random))
        done.append("added a sublayer to \(layer.name ?? "")")
      case 1 where layer !== root:
        layer.removeFromSuperlayer()
        if let owner = layer.maskOwner { owner.mask = nil }
        done.append("removed \(layer.name ?? "")")
      case 2 where layer !== root && layer.superlayer != nil:
        layer.superlayer?.insertSublayer(layer, at: 0)
        done.append("moved \(layer.name ?? "") to the back")
      case 3:
        done.append("nothing")
      default:
        set(layer, &random)
        done.append("changed \(layer.name ?? "")")
      }
    }
    log.append(done.joined(separator: ", "))
  }
}
