// Just enough of a 2D canvas for pdf.js to draw a page on, in memory, for OCR: paths (glyph
// outlines included) filled with the nonzero or even-odd rule and antialiased by four sub-scanlines,
// strokes as thin quads, images drawn through the current transform, rectangular clips, the
// compositing modes pdf.js uses for masks, save/restore. No text drawing of its own: pdf.js draws
// glyphs as paths when font faces are off (disableFontFace), which is how a font without a usable
// text encoding still shows its letters. Colours are kept (RGBA); the page is handed to OCR in grey.
// Not a general canvas: gradients and patterns are not painted (they are backgrounds, not text).

type M = [number, number, number, number, number, number];
const IDENTITY: M = [1, 0, 0, 1, 0, 0];
const mul = (m: M, n: M): M => [m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1], m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3], m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5]];
const apply = (m: M, x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
function invert(m: M): M {
  const det = m[0] * m[3] - m[1] * m[2] || 1e-12;
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

/** DOMMatrix as pdf.js uses it (2D only). */
export class RasterMatrix {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  readonly is2D = true;
  constructor(init?: number[] | { a: number; b: number; c: number; d: number; e: number; f: number }) {
    if (Array.isArray(init) && init.length >= 6) [this.a, this.b, this.c, this.d, this.e, this.f] = init;
    else if (init && !Array.isArray(init)) ({ a: this.a, b: this.b, c: this.c, d: this.d, e: this.e, f: this.f } = init);
  }
  get m(): M {
    return [this.a, this.b, this.c, this.d, this.e, this.f];
  }
  private set(m: M) {
    [this.a, this.b, this.c, this.d, this.e, this.f] = m;
    return this;
  }
  get isIdentity() {
    return this.m.every((v, i) => v === IDENTITY[i]);
  }
  multiplySelf(o: RasterMatrix) {
    return this.set(mul(this.m, toM(o)));
  }
  preMultiplySelf(o: RasterMatrix) {
    return this.set(mul(toM(o), this.m));
  }
  multiply(o: RasterMatrix) {
    return new RasterMatrix(mul(this.m, toM(o)));
  }
  invertSelf() {
    return this.set(invert(this.m));
  }
  inverse() {
    return new RasterMatrix(invert(this.m));
  }
  translate(x = 0, y = 0) {
    return new RasterMatrix(mul(this.m, [1, 0, 0, 1, x, y]));
  }
  translateSelf(x = 0, y = 0) {
    return this.set(mul(this.m, [1, 0, 0, 1, x, y]));
  }
  scale(sx = 1, sy = sx) {
    return new RasterMatrix(mul(this.m, [sx, 0, 0, sy, 0, 0]));
  }
  scaleSelf(sx = 1, sy = sx) {
    return this.set(mul(this.m, [sx, 0, 0, sy, 0, 0]));
  }
  transformPoint(p: { x?: number; y?: number } = {}) {
    const [x, y] = apply(this.m, p.x ?? 0, p.y ?? 0);
    return { x, y, z: 0, w: 1 };
  }
}
const toM = (o: unknown): M => (o instanceof RasterMatrix ? o.m : o && typeof o === "object" && "a" in o ? [(o as any).a, (o as any).b, (o as any).c, (o as any).d, (o as any).e, (o as any).f] : IDENTITY);

type Cmd = ["M" | "L", number, number] | ["C", number, number, number, number, number, number] | ["Q", number, number, number, number] | ["Z"];

/** Path2D as pdf.js builds glyph outlines with it: commands in the path's own space, transformed when filled. */
export class RasterPath {
  cmds: Cmd[] = [];
  constructor(from?: RasterPath | string) {
    if (from instanceof RasterPath) this.cmds = [...from.cmds];
  }
  moveTo(x: number, y: number) {
    this.cmds.push(["M", x, y]);
  }
  lineTo(x: number, y: number) {
    this.cmds.push(["L", x, y]);
  }
  bezierCurveTo(a: number, b: number, c: number, d: number, x: number, y: number) {
    this.cmds.push(["C", a, b, c, d, x, y]);
  }
  quadraticCurveTo(a: number, b: number, x: number, y: number) {
    this.cmds.push(["Q", a, b, x, y]);
  }
  closePath() {
    this.cmds.push(["Z"]);
  }
  rect(x: number, y: number, w: number, h: number) {
    this.cmds.push(["M", x, y], ["L", x + w, y], ["L", x + w, y + h], ["L", x, y + h], ["Z"]);
  }
  addPath(other: RasterPath, transform?: unknown) {
    const m = transform ? toM(transform) : IDENTITY;
    for (const c of other.cmds) {
      if (c[0] === "Z") this.cmds.push(["Z"]);
      else {
        const pts: number[] = [];
        for (let i = 1; i < c.length; i += 2) pts.push(...apply(m, c[i] as number, c[i + 1] as number));
        this.cmds.push([c[0], ...pts] as Cmd);
      }
    }
  }
}

type Poly = [number, number][];

/** A path's outline in device space as closed polylines, curves flattened to about a pixel. */
function flatten(cmds: Cmd[], m: M): Poly[] {
  const polys: Poly[] = [];
  let cur: Poly = [];
  let start: [number, number] = [0, 0];
  const last = (): [number, number] => cur[cur.length - 1] ?? start;
  const steps = (pts: [number, number][]) => Math.min(24, Math.max(2, Math.ceil(pts.reduce((s, p, i) => (i ? s + Math.hypot(p[0] - pts[i - 1][0], p[1] - pts[i - 1][1]) : 0), 0) / 3)));
  for (const c of cmds) {
    if (c[0] === "M") {
      if (cur.length > 1) polys.push(cur);
      start = apply(m, c[1], c[2]);
      cur = [start];
    } else if (c[0] === "L") {
      if (!cur.length) cur = [start];
      cur.push(apply(m, c[1], c[2]));
    } else if (c[0] === "Q" || c[0] === "C") {
      if (!cur.length) cur = [start];
      const p0 = last();
      const ctrl = [];
      for (let i = 1; i < c.length; i += 2) ctrl.push(apply(m, c[i] as number, c[i + 1] as number));
      const pts = [p0, ...ctrl];
      const n = steps(pts);
      for (let k = 1; k <= n; k++) {
        const t = k / n;
        const u = 1 - t;
        if (pts.length === 3) cur.push([u * u * pts[0][0] + 2 * u * t * pts[1][0] + t * t * pts[2][0], u * u * pts[0][1] + 2 * u * t * pts[1][1] + t * t * pts[2][1]]);
        else
          cur.push([
            u * u * u * pts[0][0] + 3 * u * u * t * pts[1][0] + 3 * u * t * t * pts[2][0] + t * t * t * pts[3][0],
            u * u * u * pts[0][1] + 3 * u * u * t * pts[1][1] + 3 * u * t * t * pts[2][1] + t * t * t * pts[3][1],
          ]);
      }
    } else {
      if (cur.length > 1) polys.push(cur);
      start = cur[0] ?? start;
      cur = [];
    }
  }
  if (cur.length > 1) polys.push(cur);
  return polys;
}

type Rgba = [number, number, number, number];
const NAMED: Record<string, Rgba> = { black: [0, 0, 0, 1], white: [255, 255, 255, 1], transparent: [0, 0, 0, 0] };
function parseColor(style: unknown): Rgba | null {
  if (typeof style !== "string") return null;
  const s = style.trim().toLowerCase();
  if (NAMED[s]) return NAMED[s];
  let m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/.exec(s);
  if (m) return [parseInt(m[1].slice(0, 2), 16), parseInt(m[1].slice(2, 4), 16), parseInt(m[1].slice(4, 6), 16), m[2] ? parseInt(m[2], 16) / 255 : 1];
  m = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(s);
  if (m) return [parseInt(m[1] + m[1], 16), parseInt(m[2] + m[2], 16), parseInt(m[3] + m[3], 16), 1];
  m = /^rgba?\(([^)]+)\)$/.exec(s);
  if (m) {
    const [r, g, b, a] = m[1].split(/[,\s/]+/).filter(Boolean).map(Number);
    return [r, g, b, Number.isFinite(a) ? a : 1];
  }
  return null;
}

type State = { m: M; fill: unknown; stroke: unknown; alpha: number; op: string; lineWidth: number; clip: [number, number, number, number] };

const SUB = 4; // sub-scanlines per pixel row

/** CanvasRenderingContext2D, the parts pdf.js calls. */
export class RasterContext {
  private state: State;
  private stack: State[] = [];
  private path: Cmd[] = [];
  // Properties pdf.js sets and reads back; only some change what is painted.
  font = "10px sans-serif";
  textAlign = "start";
  textBaseline = "alphabetic";
  direction = "ltr";
  lineCap = "butt";
  lineJoin = "miter";
  miterLimit = 10;
  lineDashOffset = 0;
  imageSmoothingEnabled = true;
  imageSmoothingQuality = "low";
  filter = "none";
  fillRule = "nonzero";
  private dash: number[] = [];

  constructor(readonly canvas: RasterCanvas) {
    this.state = { m: IDENTITY, fill: "#000000", stroke: "#000000", alpha: 1, op: "source-over", lineWidth: 1, clip: [0, 0, canvas.width, canvas.height] };
  }

  get fillStyle() {
    return this.state.fill;
  }
  set fillStyle(v: unknown) {
    this.state.fill = v;
  }
  get strokeStyle() {
    return this.state.stroke;
  }
  set strokeStyle(v: unknown) {
    this.state.stroke = v;
  }
  get globalAlpha() {
    return this.state.alpha;
  }
  set globalAlpha(v: number) {
    this.state.alpha = v;
  }
  get globalCompositeOperation() {
    return this.state.op;
  }
  set globalCompositeOperation(v: string) {
    this.state.op = v;
  }
  get lineWidth() {
    return this.state.lineWidth;
  }
  set lineWidth(v: number) {
    this.state.lineWidth = v;
  }

  save() {
    this.stack.push({ ...this.state });
  }
  restore() {
    const s = this.stack.pop();
    if (s) this.state = s;
  }
  setTransform(a?: unknown, b?: number, c?: number, d?: number, e?: number, f?: number) {
    this.state.m = typeof a === "number" ? [a, b!, c!, d!, e!, f!] : a ? toM(a) : IDENTITY;
  }
  resetTransform() {
    this.state.m = IDENTITY;
  }
  getTransform() {
    return new RasterMatrix(this.state.m);
  }
  transform(a: number, b: number, c: number, d: number, e: number, f: number) {
    this.state.m = mul(this.state.m, [a, b, c, d, e, f]);
  }
  translate(x: number, y: number) {
    this.transform(1, 0, 0, 1, x, y);
  }
  scale(x: number, y: number) {
    this.transform(x, 0, 0, y, 0, 0);
  }
  rotate(r: number) {
    this.transform(Math.cos(r), Math.sin(r), -Math.sin(r), Math.cos(r), 0, 0);
  }
  setLineDash(d: number[]) {
    this.dash = d;
  }
  getLineDash() {
    return this.dash;
  }

  // ---- the current path, kept in device space as canvas does ----
  beginPath() {
    this.path = [];
  }
  private add(kind: "M" | "L", x: number, y: number) {
    this.path.push([kind, ...apply(this.state.m, x, y)]);
  }
  moveTo(x: number, y: number) {
    this.add("M", x, y);
  }
  lineTo(x: number, y: number) {
    this.add("L", x, y);
  }
  bezierCurveTo(a: number, b: number, c: number, d: number, x: number, y: number) {
    this.path.push(["C", ...apply(this.state.m, a, b), ...apply(this.state.m, c, d), ...apply(this.state.m, x, y)]);
  }
  quadraticCurveTo(a: number, b: number, x: number, y: number) {
    this.path.push(["Q", ...apply(this.state.m, a, b), ...apply(this.state.m, x, y)]);
  }
  closePath() {
    this.path.push(["Z"]);
  }
  rect(x: number, y: number, w: number, h: number) {
    this.moveTo(x, y);
    this.lineTo(x + w, y);
    this.lineTo(x + w, y + h);
    this.lineTo(x, y + h);
    this.closePath();
  }

  private target(args: unknown[]): { polys: Poly[]; rule: string } {
    const [first, second] = args;
    if (first instanceof RasterPath) return { polys: flatten(first.cmds, this.state.m), rule: typeof second === "string" ? second : "nonzero" };
    return { polys: flatten(this.path, IDENTITY), rule: typeof first === "string" ? first : "nonzero" };
  }
  fill(...args: unknown[]) {
    const color = parseColor(this.state.fill);
    if (!color) return;
    const { polys, rule } = this.target(args);
    this.canvas.fillPolygons(polys, rule === "evenodd", color, this.state);
  }
  stroke(path?: RasterPath) {
    const color = parseColor(this.state.stroke);
    if (!color) return;
    const polys = path instanceof RasterPath ? flatten(path.cmds, this.state.m) : flatten(this.path, IDENTITY);
    const scale = Math.sqrt(Math.abs(this.state.m[0] * this.state.m[3] - this.state.m[1] * this.state.m[2]));
    const half = Math.max(0.5, (this.state.lineWidth * scale) / 2);
    const quads: Poly[] = [];
    for (const poly of polys) {
      for (let i = 1; i < poly.length; i++) {
        const [x0, y0] = poly[i - 1];
        const [x1, y1] = poly[i];
        const len = Math.hypot(x1 - x0, y1 - y0) || 1;
        const [nx, ny] = [(-(y1 - y0) / len) * half, ((x1 - x0) / len) * half];
        quads.push([[x0 + nx, y0 + ny], [x1 + nx, y1 + ny], [x1 - nx, y1 - ny], [x0 - nx, y0 - ny]]);
      }
    }
    this.canvas.fillPolygons(quads, false, color, this.state);
  }
  fillRect(x: number, y: number, w: number, h: number) {
    const color = parseColor(this.state.fill);
    if (!color) return;
    const p = new RasterPath();
    p.rect(x, y, w, h);
    this.canvas.fillPolygons(flatten(p.cmds, this.state.m), false, color, this.state);
  }
  strokeRect(x: number, y: number, w: number, h: number) {
    const p = new RasterPath();
    p.rect(x, y, w, h);
    this.stroke(p);
  }
  clearRect(x: number, y: number, w: number, h: number) {
    const [x0, y0] = apply(this.state.m, x, y);
    const [x1, y1] = apply(this.state.m, x + w, y + h);
    this.canvas.clear(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
  }
  /** Clips to the path's bounding box: the clips pdf.js sets on pages are rectangles in practice. */
  clip(...args: unknown[]) {
    const { polys } = this.target(args);
    const pts = polys.flat();
    if (!pts.length) return;
    const [cx0, cy0, cx1, cy1] = this.state.clip;
    this.state.clip = [Math.max(cx0, Math.min(...pts.map((p) => p[0]))), Math.max(cy0, Math.min(...pts.map((p) => p[1]))), Math.min(cx1, Math.max(...pts.map((p) => p[0]))), Math.min(cy1, Math.max(...pts.map((p) => p[1])))];
  }
  isPointInPath() {
    return false;
  }

  // ---- images ----
  createImageData(w: number | { width: number; height: number }, h?: number) {
    const [width, height] = typeof w === "number" ? [w, h!] : [w.width, w.height];
    return { width, height, data: new Uint8ClampedArray(width * height * 4), colorSpace: "srgb" };
  }
  getImageData(x: number, y: number, w: number, h: number) {
    return this.canvas.read(Math.round(x), Math.round(y), w, h);
  }
  putImageData(img: { width: number; height: number; data: Uint8ClampedArray }, dx: number, dy: number) {
    this.canvas.write(img, Math.round(dx), Math.round(dy));
  }
  drawImage(src: unknown, ...n: number[]) {
    const image = src instanceof RasterCanvas ? src : src && typeof src === "object" && "data" in src && "width" in src ? (src as RasterImage) : null;
    if (!image) return;
    let [sx, sy, sw, sh, dx, dy, dw, dh] = [0, 0, image.width, image.height, 0, 0, image.width, image.height];
    if (n.length === 2) [dx, dy] = n;
    else if (n.length === 4) [dx, dy, dw, dh] = n;
    else if (n.length >= 8) [sx, sy, sw, sh, dx, dy, dw, dh] = n;
    // Destination rectangle -> source pixels, through the current transform.
    const toSource = mul([sw / dw, 0, 0, sh / dh, sx - (dx * sw) / dw, sy - (dy * sh) / dh], invert(this.state.m));
    const corners = [apply(this.state.m, dx, dy), apply(this.state.m, dx + dw, dy), apply(this.state.m, dx, dy + dh), apply(this.state.m, dx + dw, dy + dh)];
    this.canvas.drawMapped(image, toSource, corners, [sx, sy, sx + sw, sy + sh], this.state);
  }

  // ---- text: drawn by pdf.js as paths; these only answer the questions it asks ----
  measureText(text: string) {
    const size = Number(/(\d+(?:\.\d+)?)px/.exec(this.font)?.[1] ?? 10);
    return { width: text.length * size * 0.5, actualBoundingBoxAscent: size * 0.8, actualBoundingBoxDescent: size * 0.2, fontBoundingBoxAscent: size * 0.8, fontBoundingBoxDescent: size * 0.2 };
  }
  fillText() {}
  strokeText() {}
  createPattern() {
    return { setTransform() {} };
  }
  createLinearGradient() {
    return { addColorStop() {} };
  }
  createRadialGradient() {
    return { addColorStop() {} };
  }
}

type RasterImage = { width: number; height: number; data: Uint8ClampedArray };

/** A canvas: RGBA pixels, transparent at first. */
export class RasterCanvas {
  data: Uint8ClampedArray;
  private ctx: RasterContext | null = null;
  constructor(
    private w: number,
    private h: number,
  ) {
    this.w = Math.max(1, Math.ceil(w));
    this.h = Math.max(1, Math.ceil(h));
    this.data = new Uint8ClampedArray(this.w * this.h * 4);
  }
  get width() {
    return this.w;
  }
  set width(v: number) {
    this.w = Math.max(1, Math.ceil(v));
    this.data = new Uint8ClampedArray(this.w * this.h * 4);
  }
  get height() {
    return this.h;
  }
  set height(v: number) {
    this.h = Math.max(1, Math.ceil(v));
    this.data = new Uint8ClampedArray(this.w * this.h * 4);
  }
  getContext() {
    return (this.ctx ??= new RasterContext(this));
  }

  /** One pixel composited with coverage `cov` of a colour, in the state's compositing mode. */
  private blend(i: number, r: number, g: number, b: number, a: number, op: string) {
    const d = this.data;
    const da = d[i + 3] / 255;
    if (op === "destination-in") return void (d[i + 3] = da * a * 255);
    if (op === "destination-out") return void (d[i + 3] = da * (1 - a) * 255);
    if (op === "source-in" || op === "copy") {
      const oa = op === "copy" ? a : a * da;
      d[i] = r;
      d[i + 1] = g;
      d[i + 2] = b;
      d[i + 3] = oa * 255;
      return;
    }
    const oa = a + da * (1 - a);
    if (oa <= 0) return;
    d[i] = (r * a + d[i] * da * (1 - a)) / oa;
    d[i + 1] = (g * a + d[i + 1] * da * (1 - a)) / oa;
    d[i + 2] = (b * a + d[i + 2] * da * (1 - a)) / oa;
    d[i + 3] = oa * 255;
  }

  /** Scanline fill, nonzero or even-odd, antialiased vertically by sub-scanlines and horizontally by span ends. */
  fillPolygons(polys: Poly[], evenOdd: boolean, [r, g, b, a]: Rgba, s: State) {
    const edges: [number, number, number, number, number][] = [];
    for (const poly of polys) {
      for (let i = 0; i < poly.length; i++) {
        const [x0, y0] = poly[i];
        const [x1, y1] = poly[(i + 1) % poly.length];
        if (y0 !== y1) edges.push(y0 < y1 ? [x0, y0, x1, y1, 1] : [x1, y1, x0, y0, -1]);
      }
    }
    if (!edges.length) return;
    const [cx0, cy0, cx1, cy1] = s.clip;
    let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const e of edges) {
      minX = Math.min(minX, e[0], e[2]);
      maxX = Math.max(maxX, e[0], e[2]);
      minY = Math.min(minY, e[1]);
      maxY = Math.max(maxY, e[3]);
    }
    // Modes that clear what the shape does not cover work on the whole clip; painting, on the shape's box.
    const whole = s.op === "destination-in" || s.op === "source-in" || s.op === "copy";
    const top = Math.max(0, Math.floor(cy0), whole ? 0 : Math.floor(minY));
    const bottom = Math.min(this.h, Math.ceil(cy1), whole ? this.h : Math.ceil(maxY));
    const left = Math.max(0, Math.floor(cx0), whole ? 0 : Math.floor(minX));
    const right = Math.min(this.w, Math.ceil(cx1), whole ? this.w : Math.ceil(maxX) + 1);
    if (right <= left) return;
    const cover = new Float32Array(right - left);
    for (let y = top; y < bottom; y++) {
      cover.fill(0);
      let any = false;
      for (let k = 0; k < SUB; k++) {
        const sy = y + (k + 0.5) / SUB;
        const xs: [number, number][] = [];
        for (const [x0, y0, x1, y1, dir] of edges) if (sy >= y0 && sy < y1) xs.push([x0 + ((sy - y0) / (y1 - y0)) * (x1 - x0), dir]);
        if (xs.length < 2) continue;
        xs.sort((p, q) => p[0] - q[0]);
        let wind = 0;
        for (let i = 0; i < xs.length - 1; i++) {
          wind = evenOdd ? wind ^ 1 : wind + xs[i][1];
          if (!wind) continue;
          const from = Math.max(left, xs[i][0]);
          const to = Math.min(right, xs[i + 1][0]);
          if (to <= from) continue;
          any = true;
          const fi = Math.floor(from);
          const ti = Math.floor(to);
          if (fi === ti) cover[fi - left] += (to - from) / SUB;
          else {
            cover[fi - left] += (fi + 1 - from) / SUB;
            for (let x = fi + 1; x < ti; x++) cover[x - left] += 1 / SUB;
            if (ti < right) cover[ti - left] += (to - ti) / SUB;
          }
        }
      }
      if (!any && !whole) continue;
      const opaque = a * s.alpha >= 1 && s.op === "source-over";
      const d = this.data;
      for (let x = left; x < right; x++) {
        const c = Math.min(1, cover[x - left]);
        if (c <= 0 && !whole) continue;
        const i = (y * this.w + x) * 4;
        if (opaque && c >= 0.999) {
          // Fully covered by an opaque colour: a plain write (backgrounds, glyph interiors).
          d[i] = r;
          d[i + 1] = g;
          d[i + 2] = b;
          d[i + 3] = 255;
        } else this.blend(i, r, g, b, a * s.alpha * c, s.op);
      }
    }
  }

  /** An image through an affine map: each device pixel in the corners' box samples its source pixel. */
  drawMapped(src: RasterImage, toSource: M, corners: [number, number][], [sx0, sy0, sx1, sy1]: number[], s: State) {
    const [cx0, cy0, cx1, cy1] = s.clip;
    const x0 = Math.max(0, Math.floor(cx0), Math.floor(Math.min(...corners.map((c) => c[0]))));
    const x1 = Math.min(this.w, Math.ceil(cx1), Math.ceil(Math.max(...corners.map((c) => c[0]))));
    const y0 = Math.max(0, Math.floor(cy0), Math.floor(Math.min(...corners.map((c) => c[1]))));
    const y1 = Math.min(this.h, Math.ceil(cy1), Math.ceil(Math.max(...corners.map((c) => c[1]))));
    const sd = src.data;
    const d = this.data;
    // Source coordinates step by a constant per device pixel: walk them instead of mapping each pixel.
    const [du, dv] = [toSource[0], toSource[1]];
    for (let y = y0; y < y1; y++) {
      let [u, v] = apply(toSource, x0 + 0.5, y + 0.5);
      for (let x = x0; x < x1; x++, u += du, v += dv) {
        if (u < sx0 || v < sy0 || u >= sx1 || v >= sy1) continue;
        const j = (Math.floor(v) * src.width + Math.floor(u)) * 4;
        const a = (sd[j + 3] / 255) * s.alpha;
        const i = (y * this.w + x) * 4;
        if (a >= 1 && s.op === "source-over") {
          // Opaque over anything: a copy (most image pixels).
          d[i] = sd[j];
          d[i + 1] = sd[j + 1];
          d[i + 2] = sd[j + 2];
          d[i + 3] = 255;
        } else if (a > 0 || s.op !== "source-over") this.blend(i, sd[j], sd[j + 1], sd[j + 2], a, s.op);
      }
    }
  }

  clear(x0: number, y0: number, x1: number, y1: number) {
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(this.h, Math.ceil(y1)); y++) this.data.fill(0, (y * this.w + Math.max(0, Math.floor(x0))) * 4, (y * this.w + Math.min(this.w, Math.ceil(x1))) * 4);
  }
  read(x: number, y: number, w: number, h: number) {
    const out = new Uint8ClampedArray(w * h * 4);
    for (let r = 0; r < h; r++) {
      if (y + r < 0 || y + r >= this.h) continue;
      for (let c = 0; c < w; c++) {
        if (x + c < 0 || x + c >= this.w) continue;
        const i = ((y + r) * this.w + x + c) * 4;
        out.set(this.data.subarray(i, i + 4), (r * w + c) * 4);
      }
    }
    return { width: w, height: h, data: out, colorSpace: "srgb" };
  }
  write(img: RasterImage, dx: number, dy: number) {
    for (let r = 0; r < img.height; r++) {
      const y = dy + r;
      if (y < 0 || y >= this.h) continue;
      const from = Math.max(0, -dx);
      const to = Math.min(img.width, this.w - dx);
      if (to <= from) continue;
      this.data.set(img.data.subarray((r * img.width + from) * 4, (r * img.width + to) * 4), (y * this.w + dx + from) * 4);
    }
  }

  /** The page in grey on white (transparent is paper), as a binary PGM (P5), which Tesseract reads. */
  toPgm(): Uint8Array {
    const header = new TextEncoder().encode(`P5\n${this.w} ${this.h}\n255\n`);
    const out = new Uint8Array(header.length + this.w * this.h);
    out.set(header);
    const d = this.data;
    const n = this.w * this.h;
    for (let p = 0, i = 0, o = header.length; p < n; p++, i += 4, o++) {
      // Integer luma (0.299, 0.587, 0.114 in 256ths), composited over white by alpha.
      const a = d[i + 3];
      const luma = (77 * d[i] + 150 * d[i + 1] + 29 * d[i + 2]) >> 8;
      out[o] = a === 255 ? luma : (luma * a + 255 * (255 - a)) / 255;
    }
    return out;
  }
}

/** pdf.js's canvas factory, for the scratch canvases it draws masks and images on. */
export class RasterCanvasFactory {
  create(width: number, height: number) {
    const canvas = new RasterCanvas(width, height);
    return { canvas, context: canvas.getContext() };
  }
  reset(target: { canvas: RasterCanvas }, width: number, height: number) {
    target.canvas.width = width;
    target.canvas.height = height;
  }
  destroy(target: { canvas: RasterCanvas | null; context: RasterContext | null }) {
    target.canvas = null;
    target.context = null;
  }
}

/** Path2D and DOMMatrix where the runtime has none (Bun has neither): pdf.js looks them up globally. */
export function installCanvasGlobals() {
  const g = globalThis as Record<string, unknown>;
  g.Path2D ??= RasterPath;
  g.DOMMatrix ??= RasterMatrix;
}
