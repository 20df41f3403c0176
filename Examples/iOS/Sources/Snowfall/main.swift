// Snow falling: a CAEmitterLayer along the top edge, one snowflake cell.
import Foundation
import Lamina
import LaminaRender

let size = CGSize(width: 320, height: 200)
let view = CALayer()
view.bounds = CGRect(origin: .zero, size: size)
view.position = CGPoint(x: size.width / 2, y: size.height / 2)

let sky = CAGradientLayer()
sky.frame = view.bounds
sky.colors = [
  CGColor(red: 0.05, green: 0.08, blue: 0.20, alpha: 1),
  CGColor(red: 0.22, green: 0.30, blue: 0.50, alpha: 1),
]
view.addSublayer(sky)

let snow = CAEmitterLayer()
snow.frame = view.bounds
snow.emitterPosition = CGPoint(x: size.width / 2, y: -10)
snow.emitterSize = CGSize(width: size.width * 1.2, height: 1)
snow.emitterShape = .line
snow.seed = 2024

let flake = CAEmitterCell()
flake.name = "flake"
let url = Bundle.module.url(forResource: "snowflake", withExtension: "png")!
flake.contents = try CGImage.decode(fileAt: url.path)
flake.birthRate = 40
flake.lifetime = 9
flake.velocity = 30
flake.velocityRange = 15
flake.emissionLongitude = .pi / 2  // down the screen
flake.emissionRange = .pi / 6
flake.yAcceleration = 6
flake.xAcceleration = 3  // a light wind
flake.scale = 0.5
flake.scaleRange = 0.3
flake.spin = 0.5
flake.spinRange = 1
flake.alphaRange = 0.4
snow.emitterCells = [flake]
view.addSublayer(snow)

// Seven seconds in, the snow has reached the ground.
let output = CommandLine.arguments.dropFirst().first ?? "snowfall.png"
let image = try Renderer().render(layer: view, size: size, scale: 2, time: 7)
try image.writePNG(to: URL(fileURLWithPath: output))
