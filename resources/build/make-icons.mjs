// Draws the app icon (a white shield with a check on an indigo rounded square) and writes it as
// PNGs with nothing but node:zlib. Run: node resources/build/make-icons.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};
const png = (size, rgba) => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

// Shapes in unit coordinates (0..1).
const roundedSquare = (x, y) => {
  const r = 0.2, m = 0.04;
  const qx = Math.abs(x - 0.5) - (0.5 - m - r), qy = Math.abs(y - 0.5) - (0.5 - m - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r <= 0;
};
const shieldPoly = (() => {
  const pts = [[0.5, 0.17], [0.77, 0.26], [0.77, 0.5]];
  for (let t = 0.1; t <= 1.0001; t += 0.1) {
    const a = [0.77, 0.5], c = [0.74, 0.72], b = [0.5, 0.85];
    pts.push([(1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0], (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1]]);
  }
  const right = pts.slice(1);
  return [...pts, ...right.reverse().slice(1).map(([px, py]) => [1 - px, py])];
})();
const inPoly = (x, y, poly) => {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};
const segDist = (x, y, [ax, ay], [bx, by]) => {
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay));
};
const check = (x, y) => Math.min(segDist(x, y, [0.37, 0.5], [0.47, 0.61]), segDist(x, y, [0.47, 0.61], [0.64, 0.4])) < 0.045;

const draw = (size) => {
  const out = Buffer.alloc(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = (px + (sx + 0.5) / S) / size, y = (py + (sy + 0.5) / S) / size;
          if (!roundedSquare(x, y)) continue;
          let c = [0x3b + (0x5b - 0x3b) * y, 0x2f + (0x4f - 0x2f) * y, 0x8f + (0xd6 - 0x8f) * y];
          if (inPoly(x, y, shieldPoly)) c = check(x, y) ? [0x3f, 0x8f, 0x5f] : [0xff, 0xff, 0xff];
          r += c[0]; g += c[1]; b += c[2]; a += 255;
        }
      }
      const n = S * S, i = (py * size + px) * 4, cov = a / 255;
      out[i] = cov ? Math.round(r / cov) : 0;
      out[i + 1] = cov ? Math.round(g / cov) : 0;
      out[i + 2] = cov ? Math.round(b / cov) : 0;
      out[i + 3] = Math.round(a / n);
    }
  }
  return png(size, out);
};

for (const size of [1024, 512, 256, 128, 64, 32, 16]) {
  writeFileSync(new URL(`../icons/${size}x${size}.png`, import.meta.url), draw(size));
}

// The macOS menu-bar icon: a template image (black, only its alpha counts; macOS tints it for a
// light or dark menu bar): the shield with its check cut out, no square. `…Template.png` and its
// `@2x` are what nativeImage loads as one template image (electron/main/tray.ts).
const drawTemplate = (size) => {
  const out = Buffer.alloc(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let a = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = 0.15 + 0.7 * ((px + (sx + 0.5) / S) / size), y = 0.16 + 0.7 * ((py + (sy + 0.5) / S) / size);
          if (inPoly(x, y, shieldPoly) && !check(x, y)) a += 255;
        }
      }
      out[(py * size + px) * 4 + 3] = Math.round(a / (S * S));
    }
  }
  return png(size, out);
};
writeFileSync(new URL('../tray/trayTemplate.png', import.meta.url), drawTemplate(16));
writeFileSync(new URL('../tray/trayTemplate@2x.png', import.meta.url), drawTemplate(32));
