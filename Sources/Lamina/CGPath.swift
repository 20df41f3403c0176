import Foundation

/// An immutable 2D path (placeholder until the path work lands).
public class CGPath {
  public init() {}
}
