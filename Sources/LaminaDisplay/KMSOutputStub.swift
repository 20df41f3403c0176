import Foundation
import LaminaRender

// Placeholder until the KMS output lands (branch kms).
public enum KMSOutput {
  public static func open(
    device: String?, connector: String?, mode: ModeRequest?, rotation: DisplayRotation
  ) throws -> DisplayOutput {
    throw KMSError.cannotOpen(device: device ?? "/dev/dri", reason: "not built yet")
  }
}
