import CGLES3
import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// A CAOpenGLLayer drawn with GL ES, composited like any layer.
final class OpenGLLayerTests: XCTestCase {
  /// A triangle turning once every 4 seconds, drawn with its own program.
  final class Spinner: CAOpenGLLayer {
    var program: GLuint = 0
    var draws = 0

    func compile() {
      func shader(_ kind: Int32, _ source: String) -> GLuint {
        let s = glCreateShader(GLenum(kind))
        source.withCString { text in
          var p: UnsafePointer<GLchar>? = text
          glShaderSource(s, 1, &p, nil)
        }
        glCompileShader(s)
        return s
      }
      let vs = shader(
        GL_VERTEX_SHADER,
        """
        #version 300 es
        uniform float u_angle;
        void main() {
          float a = u_angle + float(gl_VertexID) * 2.0943951;
          gl_Position = vec4(0.8 * cos(a), 0.8 * sin(a), 0.0, 1.0);
        }
        """)
      let fs = shader(
        GL_FRAGMENT_SHADER,
        """
        #version 300 es
        precision mediump float;
        out vec4 o_color;
        void main() { o_color = vec4(1.0, 0.8, 0.1, 1.0); }
        """)
      program = glCreateProgram()
      glAttachShader(program, vs)
      glAttachShader(program, fs)
      glLinkProgram(program)
    }

    override func draw(atLayerTime t: CFTimeInterval) {
      draws += 1
      if program == 0 { compile() }
      glClearColor(0.1, 0.15, 0.35, 1)
      glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
      glUseProgram(program)
      glUniform1f(glGetUniformLocation(program, "u_angle"), Float(t * .pi / 2))
      glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    }
  }

  func scene() -> (CALayer, Spinner) {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 120, height: 100)
    root.position = CGPoint(x: 60, y: 50)
    let card = CALayer()
    card.frame = CGRect(x: 25, y: 15, width: 70, height: 70)
    card.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
    card.cornerRadius = 12
    card.masksToBounds = true
    let holder = CALayer()
    holder.frame = CGRect(x: 25, y: 15, width: 70, height: 70)
    holder.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
    holder.cornerRadius = 12
    holder.backgroundColor = .black
    holder.shadowOpacity = 0.5
    holder.shadowRadius = 5
    let spinner = Spinner()
    spinner.frame = card.bounds
    spinner.isAsynchronous = true
    card.addSublayer(spinner)
    root.addSublayer(holder)
    root.addSublayer(card)
    return (root, spinner)
  }

  func testSpinnerAtThreeTimesGolden() throws {
    let (root, spinner) = scene()
    let renderer = try RenderTestSupport.renderer()
    for time in [0.0, 1.0, 2.5] {
      var builder = FrameBuilder(size: root.bounds.size, scale: 1)
      builder.time = time
      let image = try renderer.render(builder.build(root: root, background: .white))
      try RenderTestSupport.assertMatches(
        image, golden: "reftests/gl_spinner@t\(time).png",
        tolerance: .fuzzy(maxDifference: 2, maxPixels: 0))
    }
    XCTAssertEqual(spinner.draws, 3, "an asynchronous layer draws every frame")
  }

  func testSynchronousLayerDrawsOnlyWhenAsked() throws {
    let (root, spinner) = scene()
    spinner.isAsynchronous = false
    let renderer = try RenderTestSupport.renderer()
    for time in [0.0, 0.5, 1.0] {
      var builder = FrameBuilder(size: root.bounds.size, scale: 1)
      builder.time = time
      _ = try renderer.render(builder.build(root: root, background: .white))
    }
    XCTAssertEqual(spinner.draws, 1)
    spinner.setNeedsDisplay()
    var builder = FrameBuilder(size: root.bounds.size, scale: 1)
    builder.time = 2
    let image = try renderer.render(builder.build(root: root, background: .white))
    XCTAssertEqual(spinner.draws, 2)
    // The GL content shows through the rotated, rounded clip.
    let p = image.pixel(60, 50)
    XCTAssertEqual(p.r, 255)
    XCTAssertEqual(Int(p.g), 204, accuracy: 2)
  }
}
