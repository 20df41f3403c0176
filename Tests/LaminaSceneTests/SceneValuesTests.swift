import Foundation
import Lamina
import LaminaScene
import XCTest

/// Good scenes load with the values the spec gives them.
final class SceneValuesTests: XCTestCase {
  func load(_ root: String, canvas: String = ##"{"width": 200, "height": 100}"##) throws -> Scene {
    let text = ##"{"lamina": 1, "canvas": \##(canvas), "root": \##(root)}"##
    return try SceneLoader.load(
      data: Data(text.utf8), baseURL: SceneFilesTests.fixtures, fileName: "test.json")
  }

  func only(_ keys: String) throws -> CALayer {
    try XCTUnwrap(load(##"{"sublayers": [\##(keys)]}"##).root.sublayers?.first)
  }

  func testCanvasAndRootDefaults() throws {
    let scene = try load(
      ##"{"name": "root"}"##,
      canvas: ##"{"width": 200, "height": 100, "scale": 2, "background": "#ff000080"}"##)
    XCTAssertEqual(scene.canvas.width, 200)
    XCTAssertEqual(scene.canvas.scale, 2)
    XCTAssertEqual(scene.canvas.pixelWidth, 400)
    XCTAssertEqual(scene.canvas.background, CGColor(red: 1, green: 0, blue: 0, alpha: 128.0 / 255))
    XCTAssertEqual(scene.root.bounds, CGRect(x: 0, y: 0, width: 200, height: 100))
    XCTAssertEqual(scene.root.position, CGPoint(x: 100, y: 50))
    XCTAssertEqual(scene.root.name, "root")
    let moved = try load(##"{"position": [0, 0], "bounds": [0, 0, 10, 10]}"##)
    XCTAssertEqual(moved.root.position, .zero)
    XCTAssertEqual(moved.root.bounds.width, 10)
  }

  func testKeysAreSetInOrder() throws {
    let a = try only(##"{"frame": [0, 0, 100, 100], "anchorPoint": [0, 0]}"##)
    XCTAssertEqual(a.position, CGPoint(x: 50, y: 50))
    let b = try only(##"{"anchorPoint": [0, 0], "frame": [0, 0, 100, 100]}"##)
    XCTAssertEqual(b.position, .zero)
  }

  func testTransformSteps() throws {
    let layer = try only(
      ##"{"transform": [{"translate": [100, 0, 0]}, {"rotate": [0.785, 0, 1, 0]}, {"scale": [2, 2, 1]}, {"perspective": 500}]}"##
    )
    var t = CATransform3DIdentity
    t = CATransform3DTranslate(t, 100, 0, 0)
    t = CATransform3DRotate(t, 0.785, 0, 1, 0)
    t = CATransform3DScale(t, 2, 2, 1)
    t.m34 = -1.0 / 500
    XCTAssertEqual(layer.transform, t)
    let m = try only(
      ##"{"transform": [{"scale": [2, 2, 1]}, {"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1]}]}"##)
    XCTAssertEqual(
      m.transform,
      CATransform3DConcat(CATransform3DMakeTranslation(5, 6, 7), CATransform3DMakeScale(2, 2, 1)))
    let raw = try only(##"{"sublayerTransform": [1,0,0,0, 0,1,0,0, 0,0,1,-0.002, 0,0,0,1]}"##)
    XCTAssertEqual(raw.sublayerTransform.m34, -0.002)
  }

  func testKeyPaths() throws {
    let layer = try only(
      ##"{"transform.rotation.y": 0.5, "position.x": 7, "bounds.size": [3, 4], "transform.scale.z": 1}"##
    )
    XCTAssertEqual(layer.transform, CATransform3DMakeRotation(0.5, 0, 1, 0))
    XCTAssertEqual(layer.position.x, 7)
    XCTAssertEqual(layer.bounds.size, CGSize(width: 3, height: 4))
    let scaled = try only(##"{"transform.scale": 2}"##)
    XCTAssertEqual(scaled.transform, CATransform3DMakeScale(2, 2, 2))
  }

  func testColorsEnumsAndFlags() throws {
    let layer = try only(
      ##"{"backgroundColor": [0, 0.5, 1, 1], "borderColor": null, "shadowColor": "#102030", "contentsGravity": "resizeAspectFill", "magnificationFilter": "nearest", "isHidden": true, "isDoubleSided": false, "isGeometryFlipped": true, "maskedCorners": ["minXMinY", "maxXMaxY"], "compositingFilter": "CIMultiplyBlendMode"}"##
    )
    XCTAssertEqual(layer.backgroundColor, CGColor(red: 0, green: 0.5, blue: 1, alpha: 1))
    XCTAssertNil(layer.borderColor)
    XCTAssertEqual(layer.shadowColor, CGColor(hex: "#102030"))
    XCTAssertEqual(layer.contentsGravity, .resizeAspectFill)
    XCTAssertEqual(layer.magnificationFilter, .nearest)
    XCTAssertTrue(layer.isHidden)
    XCTAssertFalse(layer.isDoubleSided)
    XCTAssertTrue(layer.isGeometryFlipped)
    XCTAssertEqual(layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
    XCTAssertEqual(layer.compositingFilter as? String, "CIMultiplyBlendMode")
  }

  func testLayerClasses() throws {
    let shape = try XCTUnwrap(
      only(
        ##"{"class": "CAShapeLayer", "path": "M 0 0 L 10 0 L 10 10 Z", "fillColor": null, "strokeColor": "#ff0000", "lineWidth": 3, "lineCap": "round", "lineJoin": "bevel", "fillRule": "evenOdd", "lineDashPattern": [4, 2], "strokeEnd": 0.5}"##
      )
        as? CAShapeLayer)
    XCTAssertEqual(shape.path?.elements.count, 4)
    XCTAssertNil(shape.fillColor)
    XCTAssertEqual(shape.strokeColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    XCTAssertEqual(shape.lineWidth, 3)
    XCTAssertEqual(shape.lineCap, .round)
    XCTAssertEqual(shape.lineJoin, .bevel)
    XCTAssertEqual(shape.fillRule, .evenOdd)
    XCTAssertEqual(shape.lineDashPattern, [4, 2])
    XCTAssertEqual(shape.strokeEnd, 0.5)
    let gradient = try XCTUnwrap(
      only(
        ##"{"class": "CAGradientLayer", "colors": ["#ff0000", [0, 0, 1, 1]], "locations": [0, 1], "type": "conic", "startPoint": [0.5, 0.5]}"##
      )
        as? CAGradientLayer)
    XCTAssertEqual(gradient.cgColors.count, 2)
    XCTAssertEqual(gradient.locations, [0, 1])
    XCTAssertEqual(gradient.type, .conic)
    XCTAssertEqual(gradient.startPoint, CGPoint(x: 0.5, y: 0.5))
    let text = try XCTUnwrap(
      only(
        ##"{"class": "CATextLayer", "string": "Hi", "font": "DejaVu Sans", "fontSize": 12, "alignmentMode": "center", "isWrapped": true, "truncationMode": "end"}"##
      )
        as? CATextLayer)
    XCTAssertEqual(text.string as? String, "Hi")
    XCTAssertEqual(text.font as? String, "DejaVu Sans")
    XCTAssertEqual(text.fontSize, 12)
    XCTAssertEqual(text.alignmentMode, .center)
    XCTAssertTrue(text.isWrapped)
    XCTAssertEqual(text.truncationMode, .end)
    let replicator = try XCTUnwrap(
      only(
        ##"{"class": "CAReplicatorLayer", "instanceCount": 3, "instanceTransform": [{"translate": [10, 0, 0]}], "instanceColor": "#ff0000", "instanceAlphaOffset": -0.25}"##
      )
        as? CAReplicatorLayer)
    XCTAssertEqual(replicator.instanceCount, 3)
    XCTAssertEqual(replicator.instanceTransform, CATransform3DMakeTranslation(10, 0, 0))
    XCTAssertEqual(replicator.instanceAlphaOffset, -0.25)
    let scroll = try XCTUnwrap(
      only(##"{"class": "CAScrollLayer", "scrollMode": "vertically"}"##) as? CAScrollLayer)
    XCTAssertEqual(scroll.scrollMode, .vertically)
    XCTAssertTrue(scroll.masksToBounds)
    XCTAssertTrue(try only(##"{"class": "CATransformLayer"}"##) is CATransformLayer)
  }

  func testEmitterAndFilters() throws {
    let emitter = try XCTUnwrap(
      only(
        ##"{"class": "CAEmitterLayer", "emitterShape": "circle", "emitterMode": "surface", "renderMode": "additive", "seed": 7, "emitterPosition": [5, 6], "emitterCells": [{"name": "a", "birthRate": 10, "color": "#00ff00", "emitterCells": [{"name": "b", "lifetime": 2}]}]}"##
      )
        as? CAEmitterLayer)
    XCTAssertEqual(emitter.emitterShape, .circle)
    XCTAssertEqual(emitter.emitterMode, .surface)
    XCTAssertEqual(emitter.renderMode, .additive)
    XCTAssertEqual(emitter.seed, 7)
    XCTAssertEqual(emitter.emitterPosition, CGPoint(x: 5, y: 6))
    let cell = try XCTUnwrap(emitter.emitterCells?.first)
    XCTAssertEqual(cell.name, "a")
    XCTAssertEqual(cell.birthRate, 10)
    XCTAssertEqual(cell.color, CGColor(red: 0, green: 1, blue: 0, alpha: 1))
    XCTAssertEqual(cell.emitterCells?.first?.lifetime, 2)
    let filtered = try only(
      ##"{"filters": [{"name": "CIGaussianBlur", "inputRadius": 4}, {"name": "CIColorMatrix", "inputRVector": [0, 1, 0, 0]}], "backgroundFilters": [{"name": "CIColorInvert"}]}"##
    )
    let filters = try XCTUnwrap(filtered.filters as? [CIFilter])
    XCTAssertEqual(filters.map(\.name), ["CIGaussianBlur", "CIColorMatrix"])
    XCTAssertEqual(filters[0].value(forKey: "inputRadius") as? CGFloat, 4)
    XCTAssertEqual(
      filters[1].value(forKey: "inputRVector") as? CIVector, CIVector(x: 0, y: 1, z: 0, w: 0))
    XCTAssertEqual(
      filters[1].value(forKey: "inputAVector") as? CIVector, CIVector(x: 0, y: 0, z: 0, w: 1))
    XCTAssertEqual((filtered.backgroundFilters as? [CIFilter])?.first?.name, "CIColorInvert")
  }

  func testMaskAndImages() throws {
    let text = #"""
      {"lamina": 1, "canvas": {"width": 20, "height": 20}, "images": {"checker": "images/checker.png"},
       "root": {"sublayers": [{"contents": "checker", "mask": {"frame": [0, 0, 5, 5]}}]}}
      """#
    let scene = try SceneLoader.load(
      data: Data(text.utf8), baseURL: SceneFilesTests.fixtures, fileName: "test.json")
    let layer = try XCTUnwrap(scene.root.sublayers?.first)
    XCTAssertTrue((layer.contents as? CGImage) === scene.images["checker"])
    XCTAssertEqual(layer.mask?.bounds.width, 5)
    XCTAssertTrue(layer.mask?.maskOwner === layer)
  }

  func testAnimations() throws {
    let layer = try only(
      #"""
      {"animations": [
        {"keyPath": "transform.rotation.y", "fromValue": 0, "toValue": 6.2832, "duration": 4,
         "repeatCount": "infinity", "timingFunction": "linear", "fillMode": "both", "autoreverses": true,
         "beginTime": 1, "timeOffset": 0.5, "speed": 2, "isAdditive": true},
        {"class": "CAKeyframeAnimation", "keyPath": "position", "values": [[0,0],[100,0],[100,100]],
         "keyTimes": [0, 0.3, 1], "duration": 2, "calculationMode": "cubic",
         "timingFunctions": ["easeIn", [0.1, 0.2, 0.3, 0.4]]},
        {"class": "CASpringAnimation", "keyPath": "position.x", "fromValue": 0, "toValue": 200,
         "mass": 2, "stiffness": 50, "damping": 5, "initialVelocity": 1},
        {"keyPath": "backgroundColor", "toValue": "#ff0000", "timingFunction": [0.25, 0.1, 0.25, 1]},
        {"keyPath": "transform", "toValue": [{"scale": [2, 2, 1]}]},
        {"class": "CAKeyframeAnimation", "keyPath": "position", "path": "M 0 0 L 10 10", "rotationMode": "auto"}
      ]}
      """#)
    let keys = try XCTUnwrap(layer.animationKeys())
    XCTAssertEqual(keys.count, 6)
    let basic = try XCTUnwrap(layer.animation(forKey: keys[0]) as? CABasicAnimation)
    XCTAssertEqual(basic.keyPath, "transform.rotation.y")
    XCTAssertEqual(basic.fromValue as? CGFloat, 0)
    XCTAssertEqual(basic.toValue as? CGFloat, 6.2832)
    XCTAssertEqual(basic.duration, 4)
    XCTAssertEqual(basic.repeatCount, .infinity)
    XCTAssertEqual(basic.timingFunction, CAMediaTimingFunction(name: .linear))
    XCTAssertEqual(basic.fillMode, .both)
    XCTAssertTrue(basic.autoreverses)
    XCTAssertEqual(basic.beginTime, 1)
    XCTAssertEqual(basic.timeOffset, 0.5)
    XCTAssertEqual(basic.speed, 2)
    XCTAssertTrue(basic.isAdditive)
    XCTAssertFalse(basic.isRemovedOnCompletion)
    let keyframe = try XCTUnwrap(layer.animation(forKey: keys[1]) as? CAKeyframeAnimation)
    XCTAssertEqual(
      keyframe.values?.compactMap { $0 as? CGPoint },
      [.zero, CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100)])
    XCTAssertEqual(keyframe.keyTimes, [0, 0.3, 1])
    XCTAssertEqual(keyframe.calculationMode, .cubic)
    XCTAssertEqual(keyframe.timingFunctions?.count, 2)
    XCTAssertEqual(
      keyframe.timingFunctions?[1], CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.4))
    let spring = try XCTUnwrap(layer.animation(forKey: keys[2]) as? CASpringAnimation)
    XCTAssertEqual(spring.mass, 2)
    XCTAssertEqual(spring.stiffness, 50)
    XCTAssertEqual(spring.damping, 5)
    XCTAssertEqual(spring.initialVelocity, 1)
    XCTAssertEqual(spring.toValue as? CGFloat, 200)
    let color = try XCTUnwrap(layer.animation(forKey: keys[3]) as? CABasicAnimation)
    XCTAssertEqual(color.toValue as? CGColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    XCTAssertEqual(color.timingFunction, CAMediaTimingFunction(name: .default))
    let transform = try XCTUnwrap(layer.animation(forKey: keys[4]) as? CABasicAnimation)
    XCTAssertEqual(transform.toValue as? CATransform3D, CATransform3DMakeScale(2, 2, 1))
    let along = try XCTUnwrap(layer.animation(forKey: keys[5]) as? CAKeyframeAnimation)
    XCTAssertEqual(along.path?.currentPoint, CGPoint(x: 10, y: 10))
    XCTAssertEqual(along.rotationMode, .auto)
  }

  /// `maskMode` (Lamina extension): what of the mask multiplies.
  func testMaskMode() throws {
    for mode in ["alpha", "alphaInverted", "luminance", "luminanceInverted"] {
      let layer = try only(##"{"maskMode": "\##(mode)", "mask": {"bounds": [0, 0, 5, 5]}}"##)
      XCTAssertEqual(layer.maskMode.rawValue, mode)
    }
    XCTAssertEqual(try only("{}").maskMode, .alpha)
    XCTAssertThrowsError(try load(##"{"sublayers": [{"maskMode": "luma"}]}"##)) { error in
      XCTAssertEqual(
        "\(error)",
        "test.json: root.sublayers[0].maskMode: 'luma' is not one of 'alpha', 'alphaInverted',"
          + " 'luminance', 'luminanceInverted'")
    }
  }
}

final class TiledLayerSceneTests: XCTestCase {
  func testTiledLayerKeysLoad() throws {
    let json = """
      { "lamina": 1, "canvas": { "width": 10, "height": 10 },
        "root": { "sublayers": [ { "class": "CATiledLayer", "tileSize": [128, 64],
          "levelsOfDetail": 3, "levelsOfDetailBias": 1 } ] } }
      """
    let scene = try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: "t.json")
    let tiled = try XCTUnwrap(scene.root.sublayers?.first as? CATiledLayer)
    XCTAssertEqual(tiled.tileSize, CGSize(width: 128, height: 64))
    XCTAssertEqual(tiled.levelsOfDetail, 3)
    XCTAssertEqual(tiled.levelsOfDetailBias, 1)
    XCTAssertEqual(tiled.value(forKey: "levelsOfDetail") as? Int, 3)
  }
}
