import Foundation

/// A byte budget shared by several `LRUCache`s, and the lock they all take:
/// when their bytes together pass `limit`, the least recently used entry of
/// all of them goes first, whichever cache holds it. Uses are stamped by
/// one clock, so "least recently used" compares across caches. Frames are
/// counted too: an entry unused for `retainFrames` frames is dropped even
/// within the budget (`beginFrame`).
@_spi(Caches) public final class CacheBudget: @unchecked Sendable {
  /// The most bytes the caches hold together.
  package var limit: Int {
    get { locked { bound } }
    set { locked { bound = max(0, newValue); enforce(incoming: 0) } }
  }
  /// Frames an unused entry is kept.
  package let retainFrames: Int

  @usableFromInline let lock = NSLock()
  private var bound: Int
  private var members: [WeakMember] = []
  /// Uses, counted across every cache of the budget.
  private(set) var clock: UInt64 = 0
  /// Frames begun.
  @usableFromInline private(set) var frame = 0
  /// Bytes of every cache together.
  private(set) var held = 0

  package init(limit: Int, retainFrames: Int = 120) {
    bound = max(0, limit)
    self.retainFrames = retainFrames
  }

  /// Bytes of every cache of the budget together.
  package var bytes: Int { locked { held } }

  /// Starts a frame: every 30 frames, entries unused for `retainFrames`
  /// frames are dropped.
  package func beginFrame() {
    locked {
      frame += 1
      guard frame % 30 == 0 else { return }
      for member in members { member.cache?.dropUnused(since: frame - retainFrames) }
    }
  }

  @inlinable public func locked<T>(_ body: () throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }

  // MARK: For the caches (the lock held)

  func join(_ cache: BudgetMember) {
    members.removeAll { $0.cache == nil }
    members.append(WeakMember(cache: cache))
  }

  @usableFromInline func tick() -> UInt64 {
    clock &+= 1
    return clock
  }

  @usableFromInline func add(_ bytes: Int) { held += bytes }

  /// Evicts the least recently used entries of all the caches until
  /// `incoming` more bytes fit (or nothing is left to evict).
  @usableFromInline func enforce(incoming: Int) {
    while held + incoming > bound {
      var oldest: (BudgetMember, UInt64)?
      for member in members {
        guard let cache = member.cache, let use = cache.oldestUse else { continue }
        if let (_, best) = oldest, best <= use { continue }
        oldest = (cache, use)
      }
      guard let (cache, _) = oldest else { return }
      cache.evictOldest()
    }
  }

  private struct WeakMember {
    weak var cache: BudgetMember?
  }
}

/// What a `CacheBudget` asks of its caches (called with the budget's lock held).
protocol BudgetMember: AnyObject {
  /// The use stamp of the least recently used entry, nil when empty.
  var oldestUse: UInt64? { get }
  func evictOldest()
  /// Drops the entries last used before frame `frame`.
  func dropUnused(since frame: Int)
}

/// Values by key, each with a cost in bytes, kept within a `CacheBudget`
/// (alone or with other caches) and dropped least recently used first.
/// Keys must name what they stand for by value, or by an identity that is
/// never reused (`CALayer.serial`, `CGImage.identifier`, `PathMesh.serial`):
/// never by an object's address, which a new object can take once the old
/// one is freed. A value larger than the whole budget is handed back but
/// not kept. Safe from any thread; `value(forKey:make:)` makes outside the
/// lock.
///
/// ```swift
/// let budget = CacheBudget(limit: 64 << 20)
/// let bitmaps = LRUCache<String, CGImage>(budget: budget) { $0.width * $0.height * 4 }
/// let image = bitmaps.value(forKey: "star") { drawStar() }
/// ```
/// Public to the modules that import the `Caches` SPI, not `package`:
/// this toolchain does not specialize a `package` generic's `@inlinable`
/// methods in another module, and the frame builder's path meshes looked
/// up through the unspecialized methods cost 6 % of a frame of
/// loading.json (generic metadata and witness calls on every lookup).
@_spi(Caches) public final class LRUCache<Key: Hashable, Value>: BudgetMember, @unchecked Sendable {
  @usableFromInline struct Node {
    @usableFromInline var key: Key
    @usableFromInline var value: Value
    @usableFromInline var bytes: Int

    @inlinable init(key: Key, value: Value, bytes: Int) {
      self.key = key
      self.value = value
      self.bytes = bytes
    }
  }

  /// A slot's place in the use order, apart from its node: a use moves
  /// these numbers and copies no key or value.
  @usableFromInline struct Link {
    @usableFromInline var use: UInt64 = 0
    @usableFromInline var frame = 0
    /// Toward the more recently used, and the less.
    @usableFromInline var newer = -1, older = -1

    @inlinable init(use: UInt64, frame: Int) {
      self.use = use
      self.frame = frame
    }
  }

  @usableFromInline let budget: CacheBudget
  @usableFromInline let cost: (Value) -> Int
  @usableFromInline var index: [Key: Int] = [:]
  /// Nodes by slot; freed slots are reused.
  @usableFromInline var nodes: [Node?] = []
  /// The use order of each slot of `nodes`.
  @usableFromInline var links: [Link] = []
  @usableFromInline var freeSlots: [Int] = []
  /// Most and least recently used slots (-1 when empty).
  @usableFromInline var newest = -1, oldest = -1
  @usableFromInline var held = 0
  @usableFromInline var made = 0
  @usableFromInline var evicted = 0

  /// A cache within `budget`, whose values cost what `cost` says.
  public init(budget: CacheBudget, cost: @escaping (Value) -> Int) {
    self.budget = budget
    self.cost = cost
    budget.locked { budget.join(self) }
  }

  /// Entries held.
  package var count: Int { budget.locked { index.count } }
  /// Bytes held.
  package var bytes: Int { budget.locked { held } }
  /// Values stored since the cache was made (misses that were filled).
  package var insertions: Int { budget.locked { made } }
  /// Entries dropped to stay within the budget or for going unused.
  package var evictions: Int { budget.locked { evicted } }

  /// Whether `key` is held (not counted as a use).
  package func contains(_ key: Key) -> Bool { budget.locked { index[key] != nil } }

  /// The value of `key`, counted as a use; nil when it is not held.
  @inlinable public func value(forKey key: Key) -> Value? {
    budget.locked {
      guard let slot = index[key] else { return nil }
      touch(slot)
      return nodes[slot]?.value
    }
  }

  /// The value of `key` without counting a use; nil when it is not held.
  @inlinable public func peek(_ key: Key) -> Value? {
    budget.locked { index[key].flatMap { nodes[$0]?.value } }
  }

  /// The value of `key`, made by `make` (outside the lock) and stored
  /// when it is not held.
  @inlinable public func value(forKey key: Key, make: () throws -> Value) rethrows -> Value {
    if let value = value(forKey: key) { return value }
    let value = try make()
    insert(value, forKey: key)
    return value
  }

  /// Stores `value` under `key` (replacing what it held), evicting the
  /// least recently used entries of the budget's caches to make room.
  @inlinable public func insert(_ value: Value, forKey key: Key) {
    let bytes = max(0, cost(value))
    budget.locked {
      made += 1
      if let slot = index[key] { remove(slot) }
      guard bytes <= budget.limitUnlocked else { return }
      budget.enforce(incoming: bytes)
      let node = Node(key: key, value: value, bytes: bytes)
      let order = Link(use: budget.tick(), frame: budget.frame)
      let slot: Int
      if let free = freeSlots.popLast() {
        slot = free
        nodes[slot] = node
        links[slot] = order
      } else {
        slot = nodes.count
        nodes.append(node)
        links.append(order)
      }
      index[key] = slot
      link(slot)
      held += bytes
      budget.add(bytes)
    }
  }

  /// Drops every entry.
  package func removeAll() {
    budget.locked {
      budget.add(-held)
      held = 0
      index.removeAll()
      nodes.removeAll()
      links.removeAll()
      freeSlots.removeAll()
      newest = -1
      oldest = -1
    }
  }

  // MARK: BudgetMember (the lock held)

  var oldestUse: UInt64? { oldest < 0 ? nil : links[oldest].use }

  @usableFromInline func evictOldest() {
    guard oldest >= 0 else { return }
    remove(oldest)
    evicted += 1
  }

  func dropUnused(since frame: Int) {
    while oldest >= 0, links[oldest].frame < frame {
      remove(oldest)
      evicted += 1
    }
  }

  // MARK: The list, newest first

  @inlinable func touch(_ slot: Int) {
    unlink(slot)
    links[slot].use = budget.tick()
    links[slot].frame = budget.frame
    link(slot)
  }

  @inlinable func link(_ slot: Int) {
    links[slot].older = newest
    links[slot].newer = -1
    if newest >= 0 { links[newest].newer = slot }
    newest = slot
    if oldest < 0 { oldest = slot }
  }

  /// Takes a held slot out of the use order.
  @inlinable func unlink(_ slot: Int) {
    let (newer, older) = (links[slot].newer, links[slot].older)
    if newer >= 0 { links[newer].older = older } else { newest = older }
    if older >= 0 { links[older].newer = newer } else { oldest = newer }
  }

  @inlinable func remove(_ slot: Int) {
    guard let node = nodes[slot] else { return }
    unlink(slot)
    index[node.key] = nil
    held -= node.bytes
    budget.add(-node.bytes)
    nodes[slot] = nil
    freeSlots.append(slot)
  }
}

extension CacheBudget {
  /// `limit` for a caller that holds the lock.
  @usableFromInline var limitUnlocked: Int { bound }
}
