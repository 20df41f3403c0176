/// The After Effects expression API as JavaScript, written for Lamina: the
/// program `lamina-expr` runs before a document's expressions (see
/// `ExpressionRunner`). Values arrive sampled per frame from the importer;
/// semantics follow After Effects as lottie-web documents them (loops,
/// `linear`/`ease`, the `$bm_` helpers of exported files); `wiggle`,
/// `random` and `noise` are deterministic (seeded by the property's JSON
/// path and the frame). docs/lottie.md lists what is supported.
enum ExpressionLibrary {
  static let source = #"""
// The After Effects expression API over one document's data, run in
// lamina-expr (Duktape, no clock, no I/O). The importer appends
// `__run(<data>)`; results leave through __emit, one line each:
//   B id          evaluation of property `id` begins
//   V id [[…],…]  its values at its frames
//   X id message  it threw (or returned something that is not numbers)
//   D             all done
var __fr = 30, __comps = [], __props = [], __stack = [], __seedState = 0;

function __hash(s, h) {
  h = (h | 0) ^ 0x811c9dc5;
  s = String(s);
  for (var i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return __mix(h);
}
function __mix(h) {
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}
// A small counter-based generator: deterministic from its seed.
function __next() {
  __seedState = (__seedState + 0x9e3779b9) >>> 0;
  return __mix(__seedState) / 4294967296;
}
Math.random = function () { return __next(); };

function __isProp(x) { return x instanceof __Prop || x instanceof __Pair; }
function __v(x) {
  if (__isProp(x)) x = x.value;
  if (x instanceof __Path) return x.flat();
  if (x && typeof x === 'object' && typeof x.length === 'number') {
    var out = [];
    for (var i = 0; i < x.length; i++) out.push(__v(x[i]));
    return out;
  }
  return x;
}
function __isArray(x) { return x instanceof Array; }
function __unwrap(a) { return a.length === 1 ? a[0] : a; }
function __lerp(a, b, u) {
  if (__isArray(a) || __isArray(b)) {
    a = __isArray(a) ? a : [a]; b = __isArray(b) ? b : [b];
    var out = [], n = Math.max(a.length, b.length);
    for (var i = 0; i < n; i++) {
      var x = i < a.length ? a[i] : 0, y = i < b.length ? b[i] : 0;
      out.push(x + (y - x) * u);
    }
    return out;
  }
  return a + (b - a) * u;
}
function __pmod(a, b) { var m = a % b; return m < 0 ? m + b : m; }

// MARK: Properties

function __Prop(d) {
  this.d = d;
  this.cache = {};
  this.name = d.name || '';
}
// The keyframed (pre-expression) value at a frame: the importer's samples,
// one a frame from f0 (every `step` frames), linear between.
__Prop.prototype.raw = function (f) {
  // A text document: the text of the last keyframe at or before f, as
  // UTF-16 code units.
  if (this.d.text) {
    var texts = this.d.texts, s = texts.length ? texts[0][1] : '';
    for (var t = 0; t < texts.length && texts[t][0] <= f; t++) s = texts[t][1];
    return __units(s);
  }
  var v = this.d.v, n = v.length;
  if (n === 1) return v[0].slice();
  var u = (f - this.d.f0) / (this.d.s || 1);
  if (!(u > 0)) return v[0].slice();
  if (u >= n - 1) return v[n - 1].slice();
  var i = Math.floor(u);
  return __lerp(v[i], v[i + 1], u - i);
};
// The value after its expression; the keyframed one while the property's
// own expression runs (After Effects: a property's valueAtTime in its own
// expression is the pre-expression value), which also ends cycles.
__Prop.prototype.at = function (f) {
  if (this.d.x == null || this.running) return this.raw(f);
  var key = String(f);
  if (key in this.cache) return this.cache[key].slice();
  var r = __evaluate(this, f);
  this.cache[key] = r;
  return r.slice();
};
__Prop.prototype.now = function () {
  return __stack.length ? __stack[__stack.length - 1].frame : 0;
};
// A path property's value is a path object (`points()`, …); a number
// property's a number or an array.
__Prop.prototype.wrap = function (v) {
  if (this.d.text) return String.fromCharCode.apply(null, v);
  return this.d.shape ? new __Path(v, this.d.c) : __unwrap(v);
};
function __units(s) {
  var out = [];
  for (var i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
  return out;
}
Object.defineProperty(__Prop.prototype, 'value', { get: function () { return this.wrap(this.at(this.now())); } });
Object.defineProperty(__Prop.prototype, 'numKeys', { get: function () { return this.d.k.length; } });
Object.defineProperty(__Prop.prototype, 'velocity', { get: function () { return this.velocityAtTime(this.now() / __fr); } });
Object.defineProperty(__Prop.prototype, 'speed', { get: function () { return this.speedAtTime(this.now() / __fr); } });
__Prop.prototype.valueOf = function () { return this.value; };
// prop[0], prop[1], …: a property reads as its value's array.
[0, 1, 2, 3].forEach(function (i) {
  Object.defineProperty(__Prop.prototype, i, { get: function () { var v = this.at(this.now()); return v[i]; } });
});
Object.defineProperty(__Prop.prototype, 'length', { get: function () { return this.at(this.now()).length; } });
__Prop.prototype.valueAtTime = function (t) { return this.wrap(this.at(__v(t) * __fr)); };
['points', 'inTangents', 'outTangents', 'isClosed', 'pointOnPath', 'tangentOnPath', 'normalOnPath'].forEach(function (m) {
  __Prop.prototype[m] = function (a, t) {
    var path = t === undefined ? this.value : this.valueAtTime(t);
    if (!(path instanceof __Path)) throw new TypeError('"' + this.name + '" is not a path: no ' + m + '()');
    return path[m](a);
  };
});
__Prop.prototype.velocityAtTime = function (t) {
  var f = t * __fr, h = 0.01;
  var a = this.at(f), b = this.at(f + h), out = [];
  for (var i = 0; i < a.length; i++) out.push((b[i] - a[i]) * __fr / h);
  return __unwrap(out);
};
__Prop.prototype.speedAtTime = function (t) { return length(this.velocityAtTime(t)); };
__Prop.prototype.key = function (i) {
  var k = this.d.k;
  if (!(i >= 1 && i <= k.length)) throw new RangeError('key(' + i + '): there are ' + k.length + ' keys');
  return { index: i, time: k[i - 1] / __fr, value: __unwrap(this.raw(k[i - 1])) };
};
__Prop.prototype.nearestKey = function (t) {
  var k = this.d.k, f = t * __fr, best = 1;
  if (!k.length) throw new RangeError('nearestKey: the property has no keys');
  for (var i = 1; i < k.length; i++) if (Math.abs(k[i] - f) < Math.abs(k[best - 1] - f)) best = i + 1;
  return this.key(best);
};

// loopOut / loopIn: the keyframed values repeated after the last key (or
// before the first) over the last (first) `keys` segments, or `frames`.
__Prop.prototype.loop = function (out, type, keys, frames) {
  var k = this.d.k, n = k.length, cur = this.now();
  type = type === undefined ? 'cycle' : String(type).toLowerCase();
  if (n < 2) return __unwrap(this.raw(cur));
  var first, last;
  if (out) {
    last = k[n - 1];
    if (cur <= last) return __unwrap(this.raw(cur));
    first = frames !== undefined ? (frames > 0 ? Math.max(k[0], last - frames) : k[0])
      : (keys > 0 && keys < n ? k[n - 1 - keys] : k[0]);
  } else {
    first = k[0];
    if (cur >= first) return __unwrap(this.raw(cur));
    last = frames !== undefined ? (frames > 0 ? Math.min(k[n - 1], first + frames) : k[n - 1])
      : (keys > 0 && keys < n ? k[keys] : k[n - 1]);
  }
  var dur = last - first;
  if (!(dur > 0)) return __unwrap(this.raw(cur));
  var m = __pmod(cur - first, dur);
  var reps = Math.round((cur - first - m) / dur);
  if (type === 'pingpong') {
    if (reps % 2 !== 0) return __unwrap(this.raw(last - m));
    return __unwrap(this.raw(first + m));
  }
  if (type === 'offset') {
    var a = this.raw(first), b = this.raw(last), c = this.raw(first + m);
    for (var i = 0; i < c.length; i++) c[i] += (b[i] - a[i]) * reps;
    return __unwrap(c);
  }
  if (type === 'continue') {
    var edge = out ? last : first, h = 0.01;
    var e = this.raw(edge), e2 = this.raw(out ? edge - h : edge + h), r = [];
    for (var j = 0; j < e.length; j++) r.push(e[j] + (e[j] - e2[j]) / h * Math.abs(cur - edge));
    return __unwrap(r);
  }
  if (type !== 'cycle') throw new TypeError('loop type "' + type + '": cycle, pingpong, offset or continue');
  return __unwrap(this.raw(first + m));
};
__Prop.prototype.loopOut = function (type, keys) { return this.loop(true, type, keys); };
__Prop.prototype.loopIn = function (type, keys) { return this.loop(false, type, keys); };
__Prop.prototype.loopOutDuration = function (type, seconds) { return this.loop(true, type, 0, (seconds || 0) * __fr); };
__Prop.prototype.loopInDuration = function (type, seconds) { return this.loop(false, type, 0, (seconds || 0) * __fr); };

// wiggle: the value plus smooth noise per dimension, `freq` knots a second
// of random offsets in [-amp, amp] joined by smootherstep, `octaves` layers
// each at twice the frequency and `ampMult` times the amplitude. The noise
// is seeded by the property's path: the same frame gives the same value.
__Prop.prototype.wiggle = function (freq, amp, octaves, ampMult, t) {
  freq = +freq; amp = __v(amp);
  octaves = octaves === undefined ? 1 : Math.max(1, Math.min(16, Math.floor(octaves)));
  ampMult = ampMult === undefined ? 0.5 : +ampMult;
  var f = t === undefined ? this.now() : t * __fr;
  var base = this.at(f), out = base.slice(), seed = this.seed !== undefined ? this.seed : __hash(this.d.path, 0);
  for (var d = 0; d < out.length; d++) {
    var a = __isArray(amp) ? (d < amp.length ? amp[d] : 0) : amp, q = freq, sum = 0;
    for (var o = 0; o < octaves; o++) {
      sum += a * __noise(seed + d * 7919 + o * 104729, f / __fr * q);
      a *= ampMult; q *= 2;
    }
    out[d] += sum;
  }
  return __unwrap(out);
};
// smooth(width, samples, t): the mean of `samples` values spread evenly
// over `width` seconds around t.
__Prop.prototype.smooth = function (width, samples, t) {
  width = width === undefined ? 0.2 : +__v(width);
  samples = samples === undefined ? 5 : Math.max(1, Math.min(1000, Math.floor(+__v(samples))));
  var f = t === undefined ? this.now() : __v(t) * __fr, sum = null;
  for (var i = 0; i < samples; i++) {
    var v = this.at(samples === 1 ? f : f + (i / (samples - 1) - 0.5) * width * __fr);
    if (!sum) sum = v; else for (var j = 0; j < sum.length; j++) sum[j] += v[j] || 0;
  }
  return this.wrap(sum.map(function (x) { return x / samples; }));
};
// temporalWiggle: the value at a time moved by wiggle's noise (amp in seconds).
__Prop.prototype.temporalWiggle = function (freq, amp, octaves, ampMult, t) {
  freq = +__v(freq); amp = +__v(amp);
  octaves = octaves === undefined ? 1 : Math.max(1, Math.min(16, Math.floor(octaves)));
  ampMult = ampMult === undefined ? 0.5 : +ampMult;
  var f = t === undefined ? this.now() : __v(t) * __fr, a = amp, q = freq, shift = 0;
  var seed = (this.seed !== undefined ? this.seed : __hash(this.d.path, 0)) ^ 0x51ed27;
  for (var o = 0; o < octaves; o++) {
    shift += a * __noise(seed + o * 104729, f / __fr * q);
    a *= ampMult; q *= 2;
  }
  return this.wrap(this.at(f + shift * __fr));
};
function __knot(seed, i) { return __mix(seed ^ Math.imul(i | 0, 0x27d4eb2d)) / 2147483648 - 1; }
function __noise(seed, x) {
  var i = Math.floor(x), u = x - i, s = u * u * u * (u * (u * 6 - 15) + 10);
  return __knot(seed, i) + (__knot(seed, i + 1) - __knot(seed, i)) * s;
}

// A path: vertices, in and out tangents (relative), as the importer
// flattens them: [x0, y0, x1, y1, …, in…, out…].
function __Path(flat, closed) { this.v = flat; this.c = !!closed; this.n = Math.floor(flat.length / 6); }
__Path.prototype.flat = function () { return this.v.slice(); };
__Path.prototype.list = function (k) {
  var out = [];
  for (var i = 0; i < this.n; i++) out.push([this.v[2 * (k * this.n + i)], this.v[2 * (k * this.n + i) + 1]]);
  return out;
};
__Path.prototype.points = function () { return this.list(0); };
__Path.prototype.inTangents = function () { return this.list(1); };
__Path.prototype.outTangents = function () { return this.list(2); };
__Path.prototype.isClosed = function () { return this.c; };
// The cubic segments, each as 4 points.
__Path.prototype.segments = function () {
  var p = this.points(), ti = this.inTangents(), to = this.outTangents(), out = [];
  var count = this.c ? this.n : this.n - 1;
  for (var i = 0; i < count; i++) {
    var j = (i + 1) % this.n;
    out.push([p[i], [p[i][0] + to[i][0], p[i][1] + to[i][1]], [p[j][0] + ti[j][0], p[j][1] + ti[j][1]], p[j]]);
  }
  return out;
};
function __cubic(s, t) {
  var u = 1 - t, a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
  return [a * s[0][0] + b * s[1][0] + c * s[2][0] + d * s[3][0], a * s[0][1] + b * s[1][1] + c * s[2][1] + d * s[3][1]];
}
// The point at fraction u of the path's length (16 steps a segment), and
// the direction there.
__Path.prototype.walk = function (u) {
  var segs = this.segments(), pts = [], lens = [0];
  if (!segs.length) return { p: this.n ? this.points()[0] : [0, 0], d: [1, 0] };
  for (var i = 0; i < segs.length; i++) for (var k = i ? 1 : 0; k <= 16; k++) pts.push(__cubic(segs[i], k / 16));
  for (var j = 1; j < pts.length; j++) lens.push(lens[j - 1] + length(sub(pts[j], pts[j - 1])));
  var target = Math.min(Math.max(+u, 0), 1) * lens[lens.length - 1], m = 1;
  while (m < lens.length - 1 && lens[m] < target) m++;
  var span = lens[m] - lens[m - 1], f = span > 0 ? (target - lens[m - 1]) / span : 0;
  var a = pts[m - 1], b = pts[m];
  return { p: [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f], d: normalize(sub(b, a)) };
};
__Path.prototype.pointOnPath = function (u) { return this.walk(u === undefined ? 0.5 : u).p; };
__Path.prototype.tangentOnPath = function (u) { return this.walk(u === undefined ? 0.5 : u).d; };
__Path.prototype.normalOnPath = function (u) { var d = this.walk(u === undefined ? 0.5 : u).d; return [-d[1], d[0]]; };
function createPath(points, inTangents, outTangents, closed) {
  points = __v(points || [[0, 0], [100, 0], [100, 100], [0, 100]]);
  inTangents = __v(inTangents || []); outTangents = __v(outTangents || []);
  var flat = [], i, lists = [points, inTangents, outTangents];
  for (var k = 0; k < 3; k++) for (i = 0; i < points.length; i++) {
    var q = lists[k][i] || [0, 0];
    flat.push(+q[0] || 0, +q[1] || 0);
  }
  return new __Path(flat, closed === undefined ? true : closed);
}

// Two separated dimensions (x and y position) as one property.
function __Pair(a, b) { this.a = a; this.b = b; this.name = 'Position'; }
__Pair.prototype = Object.create(__Prop.prototype);
__Pair.prototype.at = function (f) { return [this.a.at(f)[0], this.b.at(f)[0]]; };
__Pair.prototype.raw = function (f) { return [this.a.raw(f)[0], this.b.raw(f)[0]]; };
__Pair.prototype.now = __Prop.prototype.now;
__Pair.prototype.d = { k: [], path: '', v: [[0, 0]], f0: 0 };

// A constant property for what the document leaves out (defaults).
function __constant(v, name) { return new __Prop({ v: [v], k: [], f0: 0, path: '', x: null, name: name }); }

// MARK: Layers, property groups and compositions

// A property group as After Effects has them (a layer, its transform, a
// shape group, its contents, an effect): callable by name, match name or
// index (`thisLayer(2)('Group 1')(3)`), with its children as attributes
// (`transform`, `position`, `size`, …), `propertyGroup(n)`,
// `propertyIndex`, `numProperties`.
function __camel(name) {
  var words = String(name).split(/[^A-Za-z0-9]+/).filter(function (w) { return w.length; });
  return words.map(function (w, i) { return i ? w.charAt(0).toUpperCase() + w.slice(1) : w.charAt(0).toLowerCase() + w.slice(1); }).join('');
}
function __group(d, parent) {
  var g = function (key) { return g.child(key); };
  Object.defineProperty(g, 'name', { value: d.n });
  g.type = d.t; g._options = d.o || {};
  g.matchName = d.m; g.propertyIndex = d.i; g.parentGroup = parent; g.items = []; g._name = d.n;
  for (var i = 0; i < d.c.length; i++) g.items.push(__node(d.c[i], g));
  g.numProperties = g.items.length;
  g.child = __child; g.find = __find; g.propertyGroup = __propertyGroup; g.content = __content;
  for (var j = 0; j < g.items.length; j++) {
    var c = g.items[j], key = /Transform/.test(c.matchName) || c.name === 'Transform' ? 'transform' : __camel(c.name);
    if (key && !(key in g)) g[key] = c;
  }
  return g;
}
function __node(d, parent) {
  if (d.c) return __group(d, parent);
  var p = d.p >= 0 ? __props[d.p] : new __Prop({ v: [[0]], k: [], f0: 0, path: '', x: null });
  if (d.p < 0) p.raw = p.at = function () { throw new TypeError('"' + d.n + '" is not numbers (a path or text: not supported)'); };
  p.name = p._name = d.n; p.matchName = d.m; p.propertyIndex = d.i; p.parentGroup = parent;
  return p;
}
function __child(key) {
  var found = this.find(key);
  // A Layer Control effect's parameter is the layer it names (its index).
  if (__isProp(found) && /Layer Control-0001$/.test(found.matchName)) {
    var root = this;
    while (root.parentGroup) root = root.parentGroup;
    return root.comp.layer(found.value, true);
  }
  return found;
}
function __find(key) {
  if (__isProp(key)) key = key.value;
  var items = this.items, i;
  for (i = 0; i < items.length; i++) if (items[i].name === key || items[i].matchName === key) return items[i];
  if (typeof key === 'number') {
    for (i = 0; i < items.length; i++) if (items[i].propertyIndex === key) return items[i];
    if (items[key - 1]) return items[key - 1];
  }
  // A shape group's items by name, past its Contents.
  for (i = 0; i < items.length; i++) if (items[i].matchName === 'ADBE Vectors Group') return items[i].child(key);
  throw new ReferenceError('"' + this.name + '" has no property ' + JSON.stringify(key));
}
function __propertyGroup(n) {
  var g = this;
  n = n === undefined ? 1 : n;
  for (var i = 0; i < n; i++) {
    if (!g.parentGroup) throw new RangeError('propertyGroup(' + n + '): past the layer');
    g = g.parentGroup;
  }
  return g;
}
// content(name): a layer's shape by name, or a shape group's item.
function __content(name) {
  for (var i = 0; i < this.items.length; i++) {
    var m = this.items[i].matchName;
    if (m === 'ADBE Root Vectors Group' || m === 'ADBE Vectors Group') return this.items[i].child(name);
  }
  if (this.matchName === 'ADBE Root Vectors Group' || this.matchName === 'ADBE Vectors Group') return this.child(name);
  throw new ReferenceError('"' + this.name + '" has no contents');
}
__Prop.prototype.propertyGroup = __propertyGroup;

// A layer: the group of its contents, effects and transform, with its
// attributes (name, index, in and out points, parent).
function __layer(comp, d) {
  var g = __group({ n: d.name, m: '', i: d.ind, c: d.tree }, null);
  g.comp = comp; g.d = d; g.index = d.ind;
  g.inPoint = d.ip / __fr; g.outPoint = d.op / __fr; g.startTime = d.st / __fr;
  g.width = d.w; g.height = d.h;
  var t = null, e = null;
  for (var i = 0; i < g.items.length; i++) {
    if (g.items[i].matchName === 'ADBE Transform Group') t = g.items[i];
    if (g.items[i].matchName === 'ADBE Effect Parade') e = g.items[i];
  }
  if (!t) t = __group({ n: 'Transform', m: 'ADBE Transform Group', i: 6, c: [] }, g);
  function get(name, v) {
    for (var j = 0; j < t.items.length; j++) if (t.items[j].name === name) return t.items[j];
    return __constant(v, name);
  }
  var x = get('X Position', [0]), y = get('Y Position', [0]);
  var position = t.position || (t.xPosition ? new __Pair(x, y) : __constant([0, 0, 0], 'Position'));
  t.anchorPoint = get('Anchor Point', [0, 0, 0]); t.position = position; t.xPosition = x; t.yPosition = y;
  t.scale = get('Scale', [100, 100, 100]); t.rotation = get('Rotation', [0]); t.zRotation = t.rotation;
  t.opacity = get('Opacity', [100]);
  g.transform = t; g.anchorPoint = t.anchorPoint; g.position = position; g.scale = t.scale;
  g.rotation = t.rotation; g.opacity = t.opacity;
  g.effects = e || __group({ n: 'Effects', m: 'ADBE Effect Parade', i: 4, c: [] }, g);
  g.effect = function (which) { return g.effects.child(which); };
  for (var k = 0; k < g.items.length; k++) {
    if (g.items[k].matchName === 'ADBE Mask Parade') g.masks = g.items[k];
    if (g.items[k].matchName === 'ADBE Text Properties') g.text = g.items[k];
  }
  g.mask = function (which) {
    if (!g.masks) throw new ReferenceError('layer "' + d.name + '" has no masks');
    return g.masks.child(which);
  };
  Object.defineProperty(g, 'parent', { get: function () {
    if (d.parent == null) throw new ReferenceError('layer "' + d.name + '" has no parent');
    return comp.layer(d.parent, true);
  } });
  g.hasParent = d.parent != null;
  // toComp / fromComp (toWorld / fromWorld: no cameras, the same): a
  // point through the layer's transform and its parents', at time t.
  g.toComp = function (point, t) {
    var f = t === undefined ? __now() : __v(t) * __fr, q = __v(point), out = [q[0], q[1]];
    var chain = __chain(g);
    for (var i = 0; i < chain.length; i++) out = __apply(__matrix(chain[i], f), out);
    return q.length > 2 ? [out[0], out[1], q[2]] : out;
  };
  g.fromComp = function (point, t) {
    var f = t === undefined ? __now() : __v(t) * __fr, q = __v(point), out = [q[0], q[1]];
    var chain = __chain(g);
    for (var i = chain.length - 1; i >= 0; i--) out = __invert(__matrix(chain[i], f), out);
    return q.length > 2 ? [out[0], out[1], q[2]] : out;
  };
  g.toWorld = g.toComp;
  g.fromWorld = g.fromComp;
  g.fromCompToSurface = g.fromComp;
  // Lottie keeps no layer markers: a layer's marker has no keys.
  g.marker = new __Markers([]);
  g.sourceRectAtTime = function (t, extents) { return __sourceRect(g, d, t, extents); };
  return g;
}
function __now() { return __stack.length ? __stack[__stack.length - 1].frame : 0; }
// The layer, then its parents (at most 100).
function __chain(layer) {
  var out = [layer];
  while (layer.hasParent && out.length < 100) { layer = layer.parent; out.push(layer); }
  return out;
}
// A layer's 2D transform at frame f, to its parent: position · rotation ·
// scale · −anchor, as [a, b, c, d, e, f] (x' = a x + c y + e).
function __matrix(layer, f) {
  var t = layer.transform, a = t.anchorPoint.at(f), p = t.position.at(f), s = t.scale.at(f);
  var r = t.rotation.at(f)[0] * Math.PI / 180, sx = s[0] / 100, sy = (s.length > 1 ? s[1] : s[0]) / 100;
  var m = [Math.cos(r) * sx, Math.sin(r) * sx, -Math.sin(r) * sy, Math.cos(r) * sy, 0, 0];
  m[4] = p[0] - (m[0] * a[0] + m[2] * (a[1] || 0));
  m[5] = (p[1] || 0) - (m[1] * a[0] + m[3] * (a[1] || 0));
  return m;
}
function __apply(m, q) { return [m[0] * q[0] + m[2] * q[1] + m[4], m[1] * q[0] + m[3] * q[1] + m[5]]; }
function __invert(m, q) {
  var det = m[0] * m[3] - m[1] * m[2];
  if (det === 0) return [q[0], q[1]];
  var x = q[0] - m[4], y = q[1] - m[5];
  return [(m[3] * x - m[2] * y) / det, (m[0] * y - m[1] * x) / det];
}

// MARK: Markers and content bounds

// A marker property (`thisComp.marker`, `thisLayer.marker`): its keys in
// time order, each with `time` and `duration` in seconds, `comment` and
// `index`; `key(i)` (from 1) or `key(comment)`, `nearestKey(t)`, `numKeys`.
function __Markers(list) {
  var keys = [];
  for (var i = 0; i < list.length; i++) {
    keys.push({ time: list[i][0] / __fr, duration: list[i][1] / __fr, comment: list[i][2], chapter: '',
      url: '', frameTarget: '', eventCuePoint: false, cuePointName: '', parameters: {}, protectedRegion: false,
      order: i });
  }
  keys.sort(function (a, b) { return a.time - b.time || a.order - b.order; });
  for (var k = 0; k < keys.length; k++) { keys[k].index = k + 1; delete keys[k].order; }
  this.keys = keys;
  this.numKeys = keys.length;
}
__Markers.prototype.key = function (which) {
  which = __v(which);
  var i;
  if (typeof which === 'string') {
    for (i = 0; i < this.keys.length; i++) if (this.keys[i].comment === which) return this.keys[i];
    throw new ReferenceError('no marker ' + JSON.stringify(which));
  }
  var k = this.keys[Math.round(which) - 1];
  if (!k) throw new RangeError('marker.key(' + which + '): there are ' + this.numKeys + ' markers');
  return k;
};
__Markers.prototype.nearestKey = function (t) {
  if (!this.numKeys) throw new RangeError('marker.nearestKey: there are no markers');
  t = __v(t);
  var best = this.keys[0];
  for (var i = 1; i < this.keys.length; i++) {
    if (Math.abs(this.keys[i].time - t) < Math.abs(best.time - t)) best = this.keys[i];
  }
  return best;
};

// sourceRectAtTime(t, includeExtents): the layer's content bounds in its
// own space at time t, as { top, left, width, height }. A shape layer's are
// those of the outlines it draws, as After Effects measures them: its
// rectangles (rounded), ellipses, stars and polygons (rounded) built as
// the renderer builds them and its paths, through group transforms, after
// the modifiers below them in their group (round corners, trim paths,
// simultaneously or as one, repeater copies), curves by their extrema;
// with includeExtents each outline widened by half the widest stroke that
// draws it. A solid's, an image's and a precomposition's are its size; a
// null's 100 × 100, as After Effects has it.
function __sourceRect(layer, d, t, extents) {
  var f = t === undefined ? __now() : __v(t) * __fr;
  if (d.ty === 5) throw new TypeError('sourceRectAtTime of a text layer is not supported (no glyph metrics)');
  if (d.ty === 3) return { top: 0, left: 0, width: 100, height: 100 };
  if (d.ty !== 4) return { top: 0, left: 0, width: d.w, height: d.h };
  var box = [Infinity, Infinity, -Infinity, -Infinity], shapes = [];
  for (var i = 0; i < layer.items.length; i++) {
    if (layer.items[i].matchName === 'ADBE Root Vectors Group') shapes = shapes.concat(__shapes(layer.items[i].items, f, !!__v(extents)));
  }
  for (var k = 0; k < shapes.length; k++) {
    var segs = __segments(shapes[k]), half = shapes[k].h;
    if (!segs.length && shapes[k].v.length) { var q = shapes[k].v[0]; segs = [[q, q, q, q]]; }
    for (var j = 0; j < segs.length; j++) {
      for (var c = 0; c < 2; c++) {
        var ends = __extrema(segs[j][0][c], segs[j][1][c], segs[j][2][c], segs[j][3][c]);
        box[c] = Math.min(box[c], ends[0] - half);
        box[c + 2] = Math.max(box[c + 2], ends[1] + half);
      }
    }
  }
  if (!(box[0] <= box[2])) return { top: 0, left: 0, width: 0, height: 0 };
  return { top: box[1], left: box[0], width: box[2] - box[0], height: box[3] - box[1] };
}
// A shape item's property by name at frame f, or `dflt`.
function __get(g, name, f, dflt) {
  for (var i = 0; i < g.items.length; i++) if (g.items[i]._name === name && __isProp(g.items[i])) return g.items[i].at(f);
  return dflt;
}
// m · n, for 2D affine matrices [a, b, c, d, e, f].
function __compose(m, n) {
  return [m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3], m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5]];
}
// A shape group's transform: position · rotation · scale · −anchor.
function __groupMatrix(tr, f) {
  var a = __get(tr, 'Anchor Point', f, [0, 0]), p = __get(tr, 'Position', f, [0, 0]);
  var s = __get(tr, 'Scale', f, [100, 100]), r = __get(tr, 'Rotation', f, [0])[0] * Math.PI / 180;
  var sx = s[0] / 100, sy = (s.length > 1 ? s[1] : s[0]) / 100;
  var m = [Math.cos(r) * sx, Math.sin(r) * sx, -Math.sin(r) * sy, Math.cos(r) * sy, 0, 0];
  m[4] = p[0] - (m[0] * a[0] + m[2] * (a[1] || 0));
  m[5] = (p[1] || 0) - (m[1] * a[0] + m[3] * (a[1] || 0));
  return m;
}

// An outline: vertices `v`, in and out tangents `i`, `o` (relative to
// their vertex, as Lottie writes them), closed `c`, and `h`, half the
// widest stroke that draws it (with includeExtents).
function __shape(v, i, o, c) { return { v: v, i: i, o: o, c: !!c, h: 0 }; }
// The cubic segments of an outline, each as 4 points.
function __segments(s) {
  var out = [], n = s.v.length, count = s.c ? n : n - 1;
  for (var k = 0; k < count; k++) {
    var j = (k + 1) % n;
    out.push([s.v[k], [s.v[k][0] + s.o[k][0], s.v[k][1] + s.o[k][1]], [s.v[j][0] + s.i[j][0], s.v[j][1] + s.i[j][1]], s.v[j]]);
  }
  return out;
}
// An open outline through cubic segments that follow each other.
function __fromSegments(segs) {
  var s = __shape([], [], [], false);
  for (var k = 0; k < segs.length; k++) {
    var g = segs[k];
    if (k === 0) { s.v.push(g[0]); s.i.push([0, 0]); s.o.push([0, 0]); }
    s.o[s.o.length - 1] = [g[1][0] - g[0][0], g[1][1] - g[0][1]];
    s.v.push(g[3]); s.i.push([g[2][0] - g[3][0], g[2][1] - g[3][1]]); s.o.push([0, 0]);
  }
  return s;
}
// The outline run backwards (a closed one keeps its first vertex), as a
// direction of 3 (`d`) builds rectangles, ellipses and stars.
function __reversed(s) {
  var n = s.v.length, order = [];
  if (n < 2) return s;
  for (var k = 0; k < n; k++) order.push(s.c ? (n - k) % n : n - 1 - k);
  return __shape(order.map(function (k) { return s.v[k]; }), order.map(function (k) { return s.o[k]; }),
    order.map(function (k) { return s.i[k]; }), s.c);
}
function __transformShape(s, m) {
  var lin = function (q) { return [m[0] * q[0] + m[2] * q[1], m[1] * q[0] + m[3] * q[1]]; };
  var out = __shape(s.v.map(function (q) { return __apply(m, q); }), s.i.map(lin), s.o.map(lin), s.c);
  out.h = s.h * Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
  return out;
}
var __kappa = 0.5519150244935105707435627;
// The outline a shape item draws at frame f (lottie-web's and the
// renderer's constructions: start vertex and direction), or null.
function __outline(it, f) {
  var p, s, k, x, y, w, h, out, reversed = it._options.d === 3;
  switch (it.type) {
    case 'sh':
      for (k = 0; k < it.items.length; k++) {
        if (it.items[k].d && it.items[k].d.shape) {
          var path = new __Path(it.items[k].at(f), it.items[k].d.c);
          return __shape(path.points(), path.inTangents(), path.outTangents(), path.c);
        }
      }
      return null;
    case 'rc':
      s = __get(it, 'Size', f, [0, 0]); p = __get(it, 'Position', f, [0, 0]);
      w = s[0] / 2; h = s[1] / 2; x = p[0]; y = p[1];
      var r = Math.max(0, Math.min(Math.min(w, h), __get(it, 'Roundness', f, [0])[0])), c = r * (1 - __kappa);
      out = __shape([], [], [], true);
      var add = function (v, o, i) { out.v.push(v); out.o.push([o[0] - v[0], o[1] - v[1]]); out.i.push([i[0] - v[0], i[1] - v[1]]); };
      if (r > 0) {
        add([x + w, y - h + r], [x + w, y - h + r], [x + w, y - h + c]);
        add([x + w, y + h - r], [x + w, y + h - c], [x + w, y + h - r]);
        add([x + w - r, y + h], [x + w - r, y + h], [x + w - c, y + h]);
        add([x - w + r, y + h], [x - w + c, y + h], [x - w + r, y + h]);
        add([x - w, y + h - r], [x - w, y + h - r], [x - w, y + h - c]);
        add([x - w, y - h + r], [x - w, y - h + c], [x - w, y - h + r]);
        add([x - w + r, y - h], [x - w + r, y - h], [x - w + c, y - h]);
        add([x + w - r, y - h], [x + w - c, y - h], [x + w - r, y - h]);
      } else {
        add([x + w, y - h], [x + w, y - h], [x + w, y - h]);
        add([x + w, y + h], [x + w, y + h], [x + w, y + h]);
        add([x - w, y + h], [x - w, y + h], [x - w, y + h]);
        add([x - w, y - h], [x - w, y - h], [x - w, y - h]);
      }
      return reversed ? __reversed(out) : out;
    case 'el':
      s = __get(it, 'Size', f, [0, 0]); p = __get(it, 'Position', f, [0, 0]);
      w = s[0] / 2; h = s[1] / 2; x = p[0]; y = p[1];
      var cw = w * __kappa, ch = h * __kappa;
      out = __shape([[x, y - h], [x + w, y], [x, y + h], [x - w, y]], [[-cw, 0], [0, -ch], [cw, 0], [0, ch]],
        [[cw, 0], [0, ch], [-cw, 0], [0, -ch]], true);
      return reversed ? __reversed(out) : out;
    case 'sr':
      p = __get(it, 'Position', f, [0, 0]);
      var star = (it._options.sy || 1) === 1;
      var n = Math.max(0, Math.min(Math.floor(__get(it, 'Points', f, [5])[0]), 1000));
      var outer = __get(it, 'Outer Radius', f, [0])[0], inner = __get(it, 'Inner Radius', f, [0])[0];
      var os = __get(it, 'Outer Roundness', f, [0])[0] / 100, is = __get(it, 'Inner Roundness', f, [0])[0] / 100;
      var count = star ? 2 * n : n, step = 2 * Math.PI / count, dir = reversed ? -1 : 1;
      var angle = -Math.PI / 2 + __get(it, 'Rotation', f, [0])[0] * Math.PI / 180, long = true;
      out = __shape([], [], [], true);
      for (k = 0; k < count; k++) {
        var rad = long || !star ? outer : inner, round = long || !star ? os : is;
        var perim = star ? 2 * Math.PI * rad / (count * 2) : 2 * Math.PI * rad / (count * 4);
        x = rad * Math.cos(angle); y = rad * Math.sin(angle);
        var len = Math.sqrt(x * x + y * y), ox = len ? y / len : 0, oy = len ? -x / len : 0;
        out.v.push([x + p[0], y + p[1]]);
        out.o.push([-ox * perim * round * dir, -oy * perim * round * dir]);
        out.i.push([ox * perim * round * dir, oy * perim * round * dir]);
        long = !long; angle += step * dir;
      }
      return out.v.length ? out : null;
  }
  return null;
}
// Round Corners: each sharp vertex (no tangents; not the ends of an open
// outline) cut back by the radius, at most half of each side, and joined
// by a quarter-circle-like curve, as the renderer rounds them.
function __roundCorners(s, radius) {
  var n = s.v.length;
  if (!(radius > 0) || n < 2) return s;
  var out = __shape([], [], [], s.c);
  out.h = s.h;
  for (var k = 0; k < n; k++) {
    var cur = s.v[k], sharp = !s.i[k][0] && !s.i[k][1] && !s.o[k][0] && !s.o[k][1];
    if (!sharp || (!s.c && (k === 0 || k === n - 1))) { out.v.push(cur); out.i.push(s.i[k]); out.o.push(s.o[k]); continue; }
    var towards = function (q) {
      var d = Math.sqrt((q[0] - cur[0]) * (q[0] - cur[0]) + (q[1] - cur[1]) * (q[1] - cur[1]));
      var t = d > 0 ? Math.min(d / 2, radius) / d : 0;
      return [cur[0] + (q[0] - cur[0]) * t, cur[1] + (q[1] - cur[1]) * t];
    };
    var a = towards(s.v[(k - 1 + n) % n]), b = towards(s.v[(k + 1) % n]);
    out.v.push(a); out.i.push([0, 0]); out.o.push([(cur[0] - a[0]) * __kappa, (cur[1] - a[1]) * __kappa]);
    out.v.push(b); out.i.push([(cur[0] - b[0]) * __kappa, (cur[1] - b[1]) * __kappa]); out.o.push([0, 0]);
  }
  return out;
}
// A cubic segment's part from t0 to t1 (de Casteljau).
function __part(g, t0, t1) {
  var split = function (g, t) {
    var l = function (a, b) { return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]; };
    var a = l(g[0], g[1]), b = l(g[1], g[2]), c = l(g[2], g[3]), d = l(a, b), e = l(b, c), m = l(d, e);
    return [[g[0], a, d, m], [m, e, c, g[3]]];
  };
  var right = t0 > 0 ? split(g, t0)[1] : g;
  if (t1 >= 1) return right;
  return split(right, t0 < 1 ? (t1 - t0) / (1 - t0) : 0)[0];
}
// The trimmed pieces of outlines taken as one path (their lengths end to
// end), between fractions `from` and `to` of the whole (lengths from 16
// chords a segment).
function __trimRun(shapes, from, to) {
  var steps = [], total = 0, k, j, q;
  for (k = 0; k < shapes.length; k++) {
    var segs = __segments(shapes[k]);
    for (j = 0; j < segs.length; j++) {
      var lens = [0], prev = segs[j][0];
      for (q = 1; q <= 16; q++) { var pt = __cubic(segs[j], q / 16); lens.push(lens[q - 1] + Math.sqrt((pt[0] - prev[0]) * (pt[0] - prev[0]) + (pt[1] - prev[1]) * (pt[1] - prev[1]))); prev = pt; }
      steps.push({ shape: k, seg: segs[j], start: total, lens: lens });
      total += lens[16];
    }
  }
  var a = from * total, b = to * total, pieces = [], current = null, last = -1;
  if (!(total > 0) || b <= a) return [];
  // The segment's t at length x of the run: within its 16th, where the
  // chord from the 16th's start is that long (exact on straight sides).
  var tAt = function (st, x) {
    var d = x - st.start, m = 1;
    while (m < 16 && st.lens[m] < d) m++;
    var lo = (m - 1) / 16, hi = m / 16, p0 = __cubic(st.seg, lo), want = d - st.lens[m - 1];
    for (var n = 0; n < 40; n++) {
      var mid = (lo + hi) / 2, q = __cubic(st.seg, mid);
      if (Math.sqrt((q[0] - p0[0]) * (q[0] - p0[0]) + (q[1] - p0[1]) * (q[1] - p0[1])) < want) lo = mid; else hi = mid;
    }
    return Math.min(Math.max((lo + hi) / 2, 0), 1);
  };
  for (k = 0; k < steps.length; k++) {
    var st = steps[k], end = st.start + st.lens[16];
    if (end <= a || st.start >= b) continue;
    var part = __part(st.seg, st.start >= a ? 0 : tAt(st, a), end <= b ? 1 : tAt(st, b));
    if (!current || st.shape !== last) { current = []; pieces.push(current); }
    current.push(part); last = st.shape;
  }
  return pieces.map(__fromSegments);
}
// Trim Paths: each outline on its own (`m` 1, simultaneously) or all as
// one (`m` 2, individually), from start to end (%) moved by offset (°),
// wrapping around as the renderer trims.
function __trim(shapes, it, f) {
  var s = Math.min(Math.max(__get(it, 'Start', f, [0])[0] / 100, 0), 1);
  var e = Math.min(Math.max(__get(it, 'End', f, [100])[0] / 100, 0), 1);
  if (s > e) { var swap = s; s = e; e = swap; }
  if (e - s >= 1) return shapes;
  var o = (__get(it, 'Offset', f, [0])[0] / 360) % 1;
  if (o < 0) o += 1;
  s += o; e += o;
  if (s >= 1 && e >= 1) { s -= 1; e -= 1; }
  var spans = e <= 1 ? [[s, e]] : [[s, 1], [0, e - 1]];
  var groups = it._options.m === 2 ? [shapes] : shapes.map(function (x) { return [x]; }), out = [];
  for (var g = 0; g < groups.length; g++) {
    for (var k = 0; k < spans.length; k++) {
      var pieces = __trimRun(groups[g], spans[k][0], spans[k][1]);
      for (var j = 0; j < pieces.length; j++) {
        pieces[j].h = groups[g].reduce(function (h, x) { return Math.max(h, x.h); }, 0);
        out.push(pieces[j]);
      }
    }
  }
  return out;
}
// A Repeater: the outlines above it copied round(Copies) times, copy i
// moved by its transform i + Offset times (scale to that power, rotation
// and position times it, about its anchor).
function __repeat(shapes, it, f) {
  var tr = null, out = [];
  for (var k = 0; k < it.items.length; k++) if (it.items[k].matchName === 'ADBE Vector Repeater Transform') tr = it.items[k];
  var n = Math.max(0, Math.min(Math.round(__get(it, 'Copies', f, [3])[0]), 10000)), offset = __get(it, 'Offset', f, [0])[0];
  var a = tr ? __get(tr, 'Anchor Point', f, [0, 0]) : [0, 0], p = tr ? __get(tr, 'Position', f, [0, 0]) : [0, 0];
  var sc = tr ? __get(tr, 'Scale', f, [100, 100]) : [100, 100], r = tr ? __get(tr, 'Rotation', f, [0])[0] : 0;
  for (var i = 0; i < n; i++) {
    var amount = i + offset, angle = r * amount * Math.PI / 180;
    var sx = Math.pow(sc[0] / 100, amount), sy = Math.pow((sc.length > 1 ? sc[1] : sc[0]) / 100, amount);
    var m = __compose([1, 0, 0, 1, a[0] + p[0] * amount, (a[1] || 0) + (p[1] || 0) * amount],
      __compose([Math.cos(angle), Math.sin(angle), -Math.sin(angle), Math.cos(angle), 0, 0],
        [sx, 0, 0, sy, -sx * a[0], -sy * (a[1] || 0)]));
    if (out.length + shapes.length > 100000) throw new RangeError('sourceRectAtTime: more than 100000 outlines (repeaters)');
    for (var j = 0; j < shapes.length; j++) out.push(__transformShape(shapes[j], m));
  }
  return out;
}
// The outlines of a group's items (top first) at frame f: each item's
// outline, a group's through its transform, each modifier applied to the
// outlines above it; a stroke widens those above it (includeExtents).
function __shapes(items, f, extents) {
  var out = [], i, j;
  for (i = 0; i < items.length; i++) {
    var it = items[i];
    switch (it.type) {
      case 'gr':
        var inner = null, m = [1, 0, 0, 1, 0, 0];
        for (j = 0; j < it.items.length; j++) {
          if (it.items[j].matchName === 'ADBE Vectors Group') inner = it.items[j];
          if (it.items[j].matchName === 'ADBE Vector Transform Group') m = __groupMatrix(it.items[j], f);
        }
        if (inner) out = out.concat(__shapes(inner.items, f, extents).map(function (s) { return __transformShape(s, m); }));
        break;
      case 'st': case 'gs':
        if (extents) {
          var half = __get(it, 'Stroke Width', f, [0])[0] / 2;
          for (j = 0; j < out.length; j++) out[j].h = Math.max(out[j].h, half);
        }
        break;
      case 'rd':
        var radius = __get(it, 'Radius', f, [0])[0];
        out = out.map(function (s) { return __roundCorners(s, radius); });
        break;
      case 'tm':
        out = __trim(out, it, f);
        break;
      case 'rp':
        out = __repeat(out, it, f);
        break;
      default:
        var o = __outline(it, f);
        if (o) out.push(o);
    }
  }
  return out;
}
// The least and greatest values of a cubic Bézier's coordinate on [0, 1].
function __extrema(p0, p1, p2, p3) {
  var lo = Math.min(p0, p3), hi = Math.max(p0, p3);
  var a = -p0 + 3 * p1 - 3 * p2 + p3, b = 2 * (p0 - 2 * p1 + p2), c = p1 - p0, ts = [];
  if (Math.abs(a) < 1e-12) { if (Math.abs(b) > 1e-12) ts.push(-c / b); }
  else {
    var disc = b * b - 4 * a * c;
    if (disc >= 0) { var r = Math.sqrt(disc); ts.push((-b + r) / (2 * a), (-b - r) / (2 * a)); }
  }
  for (var i = 0; i < ts.length; i++) {
    var t = ts[i];
    if (t > 0 && t < 1) {
      var u = 1 - t, v = u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
      lo = Math.min(lo, v); hi = Math.max(hi, v);
    }
  }
  return [lo, hi];
}

function __Comp(d) {
  this.d = d; this.name = d.name; this.width = d.w; this.height = d.h;
  this.frameDuration = 1 / __fr; this.duration = (d.op - d.ip) / __fr; this.displayStartTime = 0;
  this.numLayers = d.layers.length;
  this.layers = null;
  this.marker = new __Markers(d.markers || []);
}
__Comp.prototype.all = function () {
  if (!this.layers) {
    this.layers = [];
    for (var i = 0; i < this.d.layers.length; i++) this.layers.push(__layer(this, this.d.layers[i]));
  }
  return this.layers;
};
// layer(name) or layer(index): the index is the layer's `ind` (After
// Effects' 1-based index in the timeline), else its place in the list.
__Comp.prototype.layer = function (which, byInd) {
  var all = this.all(), i;
  if (__isProp(which)) which = which.value;
  if (typeof which === 'number') {
    for (i = 0; i < all.length; i++) if (all[i].index === which) return all[i];
    if (!byInd && all[which - 1]) return all[which - 1];
  } else {
    for (i = 0; i < all.length; i++) if (all[i].name === which) return all[i];
  }
  throw new ReferenceError('no layer ' + JSON.stringify(which) + ' in composition "' + this.name + '"');
};
function comp(name) {
  for (var i = 0; i < __comps.length; i++) if (__comps[i].name === name) return __comps[i];
  throw new ReferenceError('no composition named ' + JSON.stringify(name));
}

// MARK: Evaluation

var __names = [
  'time', 'value', 'thisProperty', 'thisLayer', 'thisComp', 'index', 'transform', 'position',
  'scale', 'rotation', 'opacity', 'anchorPoint', 'effect', 'inPoint', 'outPoint', 'startTime',
  'hasParent', 'parent', 'wiggle', 'loopIn', 'loopOut', 'loopInDuration', 'loopOutDuration',
  'valueAtTime', 'velocityAtTime', 'speedAtTime', 'velocity', 'speed', 'numKeys', 'key', 'nearestKey',
  'content', 'toComp', 'fromComp', 'toWorld', 'fromWorld', 'fromCompToSurface', 'smooth',
  'temporalWiggle', 'mask', 'text', 'marker', 'sourceRectAtTime', 'textIndex', 'textTotal',
  'selectorValue'
];
function __compile(p) {
  var code = String(p.d.x);
  // Which of the names the code mentions: only those are worked out at
  // each evaluation (the interpreter is slow; most expressions use two).
  p.uses = __names.map(function (n) { return new RegExp('(^|[^\\w$.])' + n + '($|[^\\w$])').test(code); });
  p.seed = __hash(p.d.path, 0);
  // Exported files leave their result in $bm_rt; hand-written ones in
  // their last statement (evaluated each time: a direct eval).
  if (code.indexOf('$bm_rt') >= 0) return new Function(__names.join(','), 'var $bm_rt;\n' + code + '\n;return $bm_rt;');
  // Most are one expression (`loopOut()`, `wiggle(2, 30)`): compiled once.
  try {
    return new Function(__names.join(','), 'return (' + code.replace(/[\s;]+$/, '') + '\n);');
  } catch (e) {
    return new Function(__names.join(','), 'return eval(arguments[' + __names.length + ']);');
  }
}
// posterizeTime(fps): the expression runs at the frame of the last step
// of 1/fps seconds at or before its time. Known from its first call on, the
// property is evaluated at that frame; at the first call, run again there.
function __Restart() {}
function __posterized(f, fps) { return fps > 0 ? Math.floor(f / __fr * fps + 1e-9) / fps * __fr : f; }
function posterizeTime(fps) {
  var top = __stack[__stack.length - 1];
  if (!top) return;
  fps = +__v(fps);
  var known = top.prop.posterize;
  top.prop.posterize = fps;
  if (known !== fps && __posterized(top.frame, fps) !== top.frame) throw new __Restart();
}
function __evaluate(p, f) {
  for (var tries = 0; ; tries++) {
    try {
      return __evaluateAt(p, p.posterize ? __posterized(f, p.posterize) : f);
    } catch (e) {
      if (!(e instanceof __Restart) || tries > 2) throw e;
    }
  }
}
function __evaluateAt(p, f) {
  if (!p.fn) p.fn = __compile(p);
  if (__stack.length > 64) throw new RangeError('expressions refer to each other too deeply');
  var layer = p.d.layer != null ? __comps[p.d.layer[0]].all()[p.d.layer[1]] : null;
  var comp = p.d.layer != null ? __comps[p.d.layer[0]] : __comps[0];
  var saved = __seedState;
  __stack.push({ prop: p, frame: f });
  p.running = true;
  __seedState = __mix(p.seed ^ Math.round(f * 1000));
  try {
    var u = p.uses, args = new Array(__names.length + 1);
    var bind = function (name) { return function () { return p[name].apply(p, arguments); }; };
    var ks = layer ? layer.transform : {};
    args[0] = f / __fr;
    if (u[1]) args[1] = p.wrap(p.raw(f));
    args[2] = p; args[3] = layer; args[4] = comp;
    if (layer) {
      args[5] = layer.index; args[6] = ks; args[7] = ks.position; args[8] = ks.scale;
      args[9] = ks.rotation; args[10] = ks.opacity; args[11] = ks.anchorPoint;
      if (u[12]) args[12] = layer.effect;
      args[13] = layer.inPoint; args[14] = layer.outPoint; args[15] = layer.startTime;
      if (u[16]) args[16] = layer.hasParent;
      if (u[17]) args[17] = layer.hasParent ? layer.parent : undefined;
    }
    var methods = ['wiggle', 'loopIn', 'loopOut', 'loopInDuration', 'loopOutDuration', 'valueAtTime',
      'velocityAtTime', 'speedAtTime'];
    for (var m = 0; m < methods.length; m++) if (u[18 + m]) args[18 + m] = bind(methods[m]);
    if (u[26]) args[26] = p.velocity;
    if (u[27]) args[27] = p.speed;
    args[28] = p.numKeys;
    if (u[29]) args[29] = bind('key');
    if (u[30]) args[30] = bind('nearestKey');
    if (layer && u[31]) args[31] = function (name) { return layer.content(name); };
    if (layer) for (var s = 32; s <= 36; s++) if (u[s]) args[s] = layer[__names[s]];
    if (u[37]) args[37] = bind('smooth');
    if (u[38]) args[38] = bind('temporalWiggle');
    if (layer && u[39]) args[39] = layer.mask;
    if (layer && u[40]) args[40] = layer.text;
    if (layer && u[41]) args[41] = layer.marker;
    if (layer && u[42]) args[42] = layer.sourceRectAtTime;
    args[__names.length] = p.d.x;
    // A text animator's expression selector: once per character, with
    // textIndex (from 1), textTotal and selectorValue (100, as lottie-web
    // has it); three numbers each, After Effects' Amount [x, y, z]: a
    // number (or an array of one) for all three, a longer array's first
    // three (missing ones 0).
    if (p.d.chars) {
      var each = [];
      args[44] = p.d.chars; args[45] = 100;
      for (var c = 1; c <= p.d.chars; c++) {
        args[43] = c;
        var rc = __v(p.fn.apply(null, args));
        if (__isArray(rc) && rc.length > 1) each.push(rc[0], rc[1], rc.length > 2 ? rc[2] : 0);
        else { var one = __isArray(rc) ? rc[0] : rc; each.push(one, one, one); }
      }
      args[43] = undefined;
    }
    var r = p.d.chars ? each : __v(p.fn.apply(null, args));
    // sourceText: any value as text (numbers too, as After Effects shows them).
    if (p.d.text) return __units(r === undefined || r === null ? '' : String(r));
    if (r === undefined) throw new TypeError('the expression gives no value');
    var out = __isArray(r) ? r : [r];
    if (out.length === 0 || out.length > 60000) throw new TypeError('the expression gives ' + out.length + ' values');
    if (p.d.shape && (out.length % 6 !== 0 || !__isArray(r)))
      throw new TypeError('the expression gives ' + out.length + ' numbers, not a path');
    for (var i = 0; i < out.length; i++) {
      if (typeof out[i] === 'boolean') out[i] = out[i] ? 1 : 0;
      if (typeof out[i] !== 'number' || !isFinite(out[i]))
        throw new TypeError('the expression gives ' + String(out[i]) + ' at frame ' + f + ', not a finite number');
    }
    return out;
  } finally {
    __stack.pop();
    p.running = false;
    __seedState = saved;
  }
}

function __run(data) {
  __fr = data.fr;
  var i;
  for (i = 0; i < data.props.length; i++) __props.push(new __Prop(data.props[i]));
  for (i = 0; i < data.comps.length; i++) __comps.push(new __Comp(data.comps[i]));
  for (i = 0; i < data.jobs.length; i++) {
    var id = data.jobs[i], p = __props[id], values = [];
    __emit('B ' + id);
    try {
      for (var n = 0; n < p.d.n; n++) values.push(p.at(p.d.from + n * (p.d.step || 1)));
      __emit('V ' + id + ' ' + JSON.stringify(values));
    } catch (e) {
      __emit('X ' + id + ' ' + String(e));
    }
  }
  __emit('D');
}

// MARK: The After Effects functions

function __thisProp() {
  if (!__stack.length) throw new ReferenceError('no property is being evaluated');
  return __stack[__stack.length - 1].prop;
}
function seedRandom(seed, timeless) {
  var top = __stack[__stack.length - 1];
  __seedState = __hash(top ? top.prop.d.path : '', (seed | 0) ^ (timeless ? 0x5bd1e995 : Math.round((top ? top.frame : 0) * 1000)));
}
// A draw (0…1) mapped into [a, b], or [0, a] with one bound, per
// component of vectors.
function __between(a, b, draw) {
  if (a === undefined) return draw();
  a = __v(a);
  if (b === undefined) { b = a; a = __isArray(b) ? b.map(function () { return 0; }) : 0; }
  b = __v(b);
  if (__isArray(a) || __isArray(b)) {
    var n = Math.max(__isArray(a) ? a.length : 1, __isArray(b) ? b.length : 1), out = [];
    for (var i = 0; i < n; i++) {
      var lo = __isArray(a) ? (a[i] || 0) : a, hi = __isArray(b) ? (b[i] || 0) : b;
      out.push(lo + (hi - lo) * draw());
    }
    return out;
  }
  return a + (b - a) * draw();
}
function random(a, b) { return __between(a, b, __next); }
// gaussRandom: normally distributed, mean halfway, 90 % within the range
// (After Effects' description), by Box–Muller.
function gaussRandom(a, b) {
  function g() {
    var u = Math.max(__next(), 1e-12), v = __next();
    return 0.5 + Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v) * (0.5 / 1.6449);
  }
  return __between(a, b, g);
}
function noise(x) {
  x = __v(x);
  var s = __isArray(x) ? x.reduce(function (h, v, i) { return h + v * (i + 1) * 0.7071; }, 0) : x;
  return __noise(0x2545f491, s);
}

// linear, ease, easeIn, easeOut: t mapped from [tMin, tMax] (or [0, 1]) to
// [value1, value2], eased by lottie-web's curves for After Effects' ease.
function __bezier(x1, y1, x2, y2) {
  return function (u) {
    if (u <= 0) return 0;
    if (u >= 1) return 1;
    var lo = 0, hi = 1, t = u;
    for (var i = 0; i < 60; i++) {
      var x = 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t;
      if (Math.abs(x - u) < 1e-10) break;
      if (x < u) lo = t; else hi = t;
      t = (lo + hi) / 2;
    }
    return 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t;
  };
}
function __interpolate(curve, args) {
  var t = __v(args[0]), tMin, tMax, a, b;
  if (args.length <= 3) { tMin = 0; tMax = 1; a = __v(args[1]); b = __v(args[2]); }
  else { tMin = __v(args[1]); tMax = __v(args[2]); a = __v(args[3]); b = __v(args[4]); }
  if (tMin > tMax) { var s = tMin; tMin = tMax; tMax = s; s = a; a = b; b = s; }
  var u = tMax === tMin ? (t >= tMax ? 1 : 0) : Math.min(Math.max((t - tMin) / (tMax - tMin), 0), 1);
  return __lerp(a, b, curve(u));
}
var __easeInOut = __bezier(0.33, 0, 0.667, 1), __easeIn = __bezier(0.333, 0, 0.833, 0.833),
  __easeOut = __bezier(0.167, 0.167, 0.667, 1);
function linear() { return __interpolate(function (u) { return u; }, arguments); }
function ease() { return __interpolate(__easeInOut, arguments); }
function easeIn() { return __interpolate(__easeIn, arguments); }
function easeOut() { return __interpolate(__easeOut, arguments); }

// Vector math as After Effects does it: arrays element by element (the
// shorter padded with 0); a number added to an array adds to its first
// element; a number times an array scales it.
function __zip(a, b, op) {
  var n = Math.max(a.length, b.length), out = [];
  for (var i = 0; i < n; i++) out.push(op(i < a.length ? a[i] : 0, i < b.length ? b[i] : 0));
  return out;
}
function sum(a, b) {
  a = __v(a); b = __v(b);
  if (__isArray(a) && __isArray(b)) return __zip(a, b, function (x, y) { return x + y; });
  if (__isArray(a) && typeof b === 'number') { a = a.slice(); a[0] += b; return a; }
  if (typeof a === 'number' && __isArray(b)) { b = b.slice(); b[0] += a; return b; }
  return a + b;
}
function sub(a, b) {
  a = __v(a); b = __v(b);
  if (__isArray(a) && __isArray(b)) return __zip(a, b, function (x, y) { return x - y; });
  if (__isArray(a) && typeof b === 'number') { a = a.slice(); a[0] -= b; return a; }
  if (typeof a === 'number' && __isArray(b)) { b = b.map(function (x) { return -x; }); b[0] += a; return b; }
  return a - b;
}
function mul(a, b) {
  a = __v(a); b = __v(b);
  if (__isArray(a) && __isArray(b)) return __zip(a, b, function (x, y) { return x * y; });
  if (__isArray(a)) return a.map(function (x) { return x * b; });
  if (__isArray(b)) return b.map(function (x) { return x * a; });
  return a * b;
}
function div(a, b) {
  a = __v(a); b = __v(b);
  if (__isArray(a) && __isArray(b)) return __zip(a, b, function (x, y) { return x / y; });
  if (__isArray(a)) return a.map(function (x) { return x / b; });
  if (__isArray(b)) return b.map(function (x) { return a / x; });
  return a / b;
}
function mod(a, b) {
  a = __v(a); b = __v(b);
  if (__isArray(a)) return a.map(function (x) { return x % b; });
  return a % b;
}
function neg(a) { a = __v(a); return __isArray(a) ? a.map(function (x) { return -x; }) : -a; }
function add(a, b) { return sum(a, b); }
function length(a, b) {
  a = __v(a);
  if (b !== undefined) a = sub(a, b);
  if (!__isArray(a)) return Math.abs(a);
  var s = 0;
  for (var i = 0; i < a.length; i++) s += a[i] * a[i];
  return Math.sqrt(s);
}
function normalize(a) { var l = length(a); return l === 0 ? __v(a) : div(a, l); }
function dot(a, b) { var p = mul(__v(a), __v(b)), s = 0; for (var i = 0; i < p.length; i++) s += p[i]; return s; }
function cross(a, b) {
  a = __v(a); b = __v(b);
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function clamp(v, lo, hi) {
  v = __v(v); lo = __v(lo); hi = __v(hi);
  function c(x, l, h) { if (l > h) { var s = l; l = h; h = s; } return Math.min(Math.max(x, l), h); }
  if (__isArray(v)) return v.map(function (x, i) { return c(x, __isArray(lo) ? lo[i] : lo, __isArray(hi) ? hi[i] : hi); });
  return c(v, lo, hi);
}
function degreesToRadians(d) { return __v(d) * Math.PI / 180; }
function radiansToDegrees(r) { return __v(r) * 180 / Math.PI; }
function framesToTime(frames, fps) { return __v(frames) / (fps === undefined ? __fr : fps); }
function timeToFrames(t, fps) {
  if (t === undefined) t = __stack.length ? __stack[__stack.length - 1].frame / __fr : 0;
  return Math.floor(__v(t) * (fps === undefined ? __fr : fps) + 1e-6);
}
var $bm_sum = sum, $bm_sub = sub, $bm_mul = mul, $bm_div = div, $bm_mod = mod, $bm_neg = neg;
function $bm_isInstanceOfArray(a) { return __isArray(a) || __isProp(a) && __isArray(a.value); }
"""#
}
